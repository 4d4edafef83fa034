# expect: HG218@11:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.attr.persistence_mode}"
            operator  = "="
            value     = "T"
          }
        }
      }
    }
  }
}
