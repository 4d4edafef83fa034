# expect: HG213@9:25, HG213@15:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.attr.memory_mb}"
            operator  = ">="
            value     = "16 GiB"
          }
          # only the plugin's unreleased sharing branch sets `shared`
          constraint {
            attribute = "${device.attr.shared}"
            value     = "active"
          }
        }
      }
    }
  }
}
