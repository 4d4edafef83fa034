# Written for hclgpu's tests, refused by Nomad on purpose: a device count written as a word
# ("two") where a number is wanted.
job "gpu-wrong-type" {
  datacenters = ["gpu-dc"]
  type        = "batch"

  group "bench" {
    task "gpu-burn" {
      driver = "docker"

      config {
        image = "ghcr.io/example/gpu-burn:latest"
        args  = ["-d", "120"]
      }

      resources {
        cpu    = 1000
        memory = 2048

        device "nvidia/gpu" {
          count = "two"

          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "12 GiB"
          }
        }
      }
    }
  }
}
