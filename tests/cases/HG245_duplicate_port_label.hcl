# expect: HG245@6:12
job "web" {
  group "web" {
    network {
      port "http" {}
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
