# expect: HG249@11:9
job "web" {
  group "web" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
      resources {
        memory = 256
        network {
          port "http" {}
        }
      }
    }
  }
}
