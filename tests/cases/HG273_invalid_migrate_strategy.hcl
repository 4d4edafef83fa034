# expect: HG273@5:22
job "web" {
  group "web" {
    migrate {
      health_check = "tasks"
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
