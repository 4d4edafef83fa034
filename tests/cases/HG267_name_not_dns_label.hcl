# expect: HG267@3:9
job "web" {
  group "Web_API" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
