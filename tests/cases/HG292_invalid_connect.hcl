# expect: HG292@5:14
job "web" {
  group "api" {
    network {
      mode = "host"
      port "http" {
        to = 8080
      }
    }
    shutdown_delay = "5s"

    service {
      name = "api"
      port = "http"
      connect {
        sidecar_service {}
      }
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
