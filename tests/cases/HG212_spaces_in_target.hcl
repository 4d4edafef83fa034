# expect: HG212@9:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          affinity {
            attribute = "${ device.vendor }"
            value     = "nvidia"
            weight    = 50
          }
        }
      }
    }
  }
}
