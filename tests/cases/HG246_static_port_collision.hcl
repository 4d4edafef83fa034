# expect: HG246@7:18
job "web" {
  group "web" {
    network {
      port "http" { static = 8080 }
      port "admin" {
        static = 8080
      }
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
        ports = ["http", "admin"]
      }
    }
  }
}
