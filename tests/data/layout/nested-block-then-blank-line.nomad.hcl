job "web" {
  group "api" {
    network { port "http" { to = 8080 } }

    task "api" {
      driver = "docker"
    }
  }
}
