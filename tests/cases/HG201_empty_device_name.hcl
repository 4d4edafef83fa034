# expect: HG201@7:16
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "" {}
      }
    }
  }
}
