# expect: HG288@4:17
job "web" {
  constraint {
    attribute = "${node.region}"
    value     = "eu"
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
