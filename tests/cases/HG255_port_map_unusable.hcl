# expect: HG255@12:9
job "web" {
  group "web" {
    network {
      port "http" {}
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
        # Only maps ports of a task-level network.
        port_map {
          http = 80
        }
      }
    }
  }
}
