# expect: HG270@5:18
job "web" {
  group "web" {
    restart {
      attempts = 10
      interval = "1m"
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
