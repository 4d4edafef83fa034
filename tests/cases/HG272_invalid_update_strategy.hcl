# expect: HG272@4:24
job "web" {
  update {
    min_healthy_time = "10m"
    healthy_deadline = "5m"
  }
  group "web" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
