# expect: HG236@10:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu/Tesla T4" {
          constraint {
            attribute = "${device.model}"
            value     = "NVIDIA A100-SXM4-80GB"
          }
        }
      }
    }
  }
}
