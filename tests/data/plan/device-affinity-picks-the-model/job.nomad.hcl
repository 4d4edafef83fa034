job "scenario" {
  datacenters = ["dc1", "dc2"]

  group "g" {
    count = 1

    task "t" {
      driver = "docker"

      config {
        image = "example/app:1"
      }

      resources {
        device "nvidia/gpu" {
          affinity {
            attribute = "${device.model}"
            value     = "NVIDIA A100-SXM4-40GB"
            weight    = 100
          }
        }
      }
    }
  }
}
