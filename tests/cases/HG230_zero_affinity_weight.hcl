# expect: HG230@11:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          affinity {
            attribute = "${device.model}"
            value     = "NVIDIA A100-SXM4-80GB"
            weight    = 0
          }
        }
      }
    }
  }
}
