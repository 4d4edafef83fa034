# expect: HG207@11:25, HG207@27:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu/NVIDIA H100 80GB HBM3" {
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "80 GiB"
          }
        }
      }
    }
    task "u" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.model}"
            value     = "NVIDIA H200"
          }
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "141 GiB"
          }
        }
      }
    }
    task "v" {
      driver = "docker"
      resources {
        device "nvidia/gpu/NVIDIA H100 80GB HBM3" {
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "79 GiB"
          }
        }
        device "nvidia/gpu/NVIDIA H200" {
          constraint {
            attribute = "${device.attr.memory}"
            operator  = "<="
            value     = "141 GiB"
          }
        }
        device "nvidia/gpu/NVIDIA A100-SXM4-80GB" {
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "80 GiB"
          }
        }
      }
    }
  }
}
