# expect: HG240@11:22
job "web" {
  group "web" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
      resources {
        memory     = 1024
        memory_max = 512
      }
    }
  }
}
