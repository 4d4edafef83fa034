# expect: HG204@8:16
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {}
        device "nvidia/gpu" {}
      }
    }
  }
}
