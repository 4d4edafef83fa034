# expect: HG237@14:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.model}"
            value     = "Tesla T4"
          }
          affinity {
            attribute = "${device.model}"
            value     = "NVIDIA A100-SXM4-80GB"
            weight    = 50
          }
        }
      }
    }
  }
}
