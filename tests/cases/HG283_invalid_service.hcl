# expect: HG283@12:18
job "web" {
  group "web" {
    network {
      port "http" {
        to = 8080
      }
    }
    service {
      name     = "web"
      port     = "http"
      provider = "k8s"
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
