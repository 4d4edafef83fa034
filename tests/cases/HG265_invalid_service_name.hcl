# expect: HG265@9:14
job "web" {
  group "web" {
    network {
      port "http" {}
    }
    service {
      port = "http"
      name = "web_frontend"
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
        ports = ["http"]
      }
    }
    shutdown_delay = "5s"
  }
}
