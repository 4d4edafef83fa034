# expect: HG279@7:16
job "web" {
  group "web" {
    task "init" {
      driver = "docker"
      lifecycle {
        hook = "before"
      }
      config {
        image = "busybox:1.36"
      }
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
