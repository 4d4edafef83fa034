# expect: HG294@13:21
job "web" {
  group "api" {
    consul {
      partition = "a"
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
      consul {
        partition = "b"
      }
    }
  }
}
