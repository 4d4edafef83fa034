# expect: HG248@11:14
job "web" {
  group "web" {
    network {
      port "http" {
        to = 8080
      }
    }
    service {
      name = "web"
      port = "htpp"
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
