# expect: HG264@12:22
# settings: {memory-oversubscription = false}
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
