# expect: HG203@8:19
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          count = 0
        }
      }
    }
  }
}
