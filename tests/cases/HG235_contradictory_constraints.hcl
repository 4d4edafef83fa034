# expect: HG235@16:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "8 GiB"
          }
          constraint {
            attribute = "${device.attr.memory}"
            operator  = "<"
            value     = "4096 MiB"
          }
        }
      }
    }
  }
}
