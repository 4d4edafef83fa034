# expect: HG266@4:10
job "fetch" {
  group "fetch" {
    task "fetch/unpack" {
      driver = "docker"
      config {
        image = "busybox:1.36"
      }
    }
  }
}
