# expect: HG271@5:24
job "web" {
  group "web" {
    reschedule {
      delay_function = "linear"
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
