# expect: HG220@10:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.model}"
            operator  = "=~"
            value     = "A100"
          }
        }
      }
    }
  }
}
