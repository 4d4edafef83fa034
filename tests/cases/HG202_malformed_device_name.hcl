# expect: HG202@7:16
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia /gpu" {}
      }
    }
  }
}
