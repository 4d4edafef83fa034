# expect: HG250@5:7
job "web" {
  group "web" {
    network {
      mbits = 100
      port "http" {
        to = 8080
      }
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
        ports = ["http"]
      }
    }
  }
}
