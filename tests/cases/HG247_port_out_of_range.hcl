# expect: HG247@6:18
job "web" {
  group "web" {
    network {
      port "http" {
        static = 80800
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
