# expect: HG213@9:25
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
        }
      }
    }
  }
}
