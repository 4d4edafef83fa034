# expect: HG287@4:13
job "web" {
  group "web" {
    count = 10
    scaling {
      min = 1
      max = 5
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
