# expect: HG264@11:22
job "web" {
  group "api" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
      resources {
        memory     = 512
        memory_max = 1024
      }
    }
  }
}
