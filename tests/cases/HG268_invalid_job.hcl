# expect: HG268@3:10
job "web" {
  type = "services"
  group "web" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
