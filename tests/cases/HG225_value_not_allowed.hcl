# expect: HG225@11:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.attr.power}"
            operator  = "is_set"
            value     = "true"
          }
        }
      }
    }
  }
}
