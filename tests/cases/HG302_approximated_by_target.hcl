# expect: HG302@4:5, HG267@4:10
job "gpu" {
  group "g" {
    task "Web_Server" {
      driver = "docker"
      config {
        image = "busybox:1.36"
      }
    }
  }
}
