# expect: HG284@15:20
job "web" {
  group "web" {
    network {
      port "http" {
        to = 8080
      }
    }
    service {
      name = "web"
      port = "http"
      check {
        type     = "http"
        path     = "/health"
        interval = "500ms"
        timeout  = "2s"
      }
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
    shutdown_delay = "5s"
  }
}
