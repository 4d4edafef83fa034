# Written for hclgpu's tests: device requests generated from a local map with `dynamic "device"`
# (with its own iterator name, so that `${device.*}` still means the runtime device),
# for NVIDIA and AMD GPUs and a generic "gpu" request, plus an FPGA by full name.
locals {
  accelerators = {
    "nvidia/gpu" = { count = 2, memory = "16 GiB", weight = 80 }
    "amd/gpu"    = { count = 1, memory = "32 GiB", weight = -20 }
  }
}

job "render-farm" {
  datacenters = ["dc1", "dc2"]
  type        = "batch"

  group "blender" {
    count = 4

    task "render-nvidia-or-amd" {
      driver = "docker"

      config {
        image = "ghcr.io/example/blender-gpu:4.1"
        args  = ["-b", "/local/scene.blend", "-a"]
      }

      resources {
        cpu    = 8000
        memory = 16384

        dynamic "device" {
          for_each = local.accelerators
          iterator = acc
          labels   = [acc.key]

          content {
            count = acc.value.count

            constraint {
              attribute = "${device.attr.memory}"
              operator  = ">="
              value     = acc.value.memory
            }

            affinity {
              attribute = "${device.vendor}"
              value     = split("/", acc.key)[0]
              weight    = acc.value.weight
            }
          }
        }
      }
    }

    task "denoise" {
      driver = "docker"

      config {
        image = "ghcr.io/example/oidn:2.2"
      }

      resources {
        cpu    = 2000
        memory = 4096

        device "gpu" {
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "8192 MiB"
          }
        }

        device "xilinx/fpga/alveo-u250" {
          count = 1

          affinity {
            attribute = "${device.attr.firmware}"
            operator  = "version"
            value     = ">= 2.12"
          }
        }
      }
    }
  }
}
