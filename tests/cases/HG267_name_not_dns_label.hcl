# expect: HG267@4:9
# settings: {targets = ["kubernetes"]}
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
