# expect: HG277@3:3
job "web" {
  spread {
    attribute = "${node.datacenter}"
    target "dc1" {
      percent = 70
    }
    target "dc2" {
      percent = 50
    }
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
