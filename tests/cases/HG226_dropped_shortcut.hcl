# expect: HG224@8:11, HG226@10:13
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute        = "${device.attr.driver_version}"
            set_contains_any = "535.104.05,550.54.15"
          }
        }
      }
    }
  }
}
