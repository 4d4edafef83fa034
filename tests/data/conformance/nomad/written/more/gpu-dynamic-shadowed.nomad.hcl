# Written for hclgpu's tests, refused by Nomad on purpose: inside `dynamic "device"` without an
# `iterator`, the name `device` is the iterator, so `${device.attr.memory}` and
# `${device.vendor}` no longer reach the runtime device attributes.
locals {
  accelerators = {
    "nvidia/gpu" = { count = 2, memory = "16 GiB", weight = 80 }
    "amd/gpu"    = { count = 1, memory = "32 GiB", weight = -20 }
  }
}

job "render-farm-shadowed" {
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
          labels   = [device.key]

          content {
            count = device.value.count

            constraint {
              attribute = "${device.attr.memory}"
              operator  = ">="
              value     = device.value.memory
            }

            affinity {
              attribute = "${device.vendor}"
              value     = split("/", device.key)[0]
              weight    = device.value.weight
            }
          }
        }
      }
    }
  }
}
