# Breaks one shipped policy (samples/policies/registries.rego): the image is not from an
# approved registry. It keeps the others: 1 GPU, and `memory_max` is set.
job "miner" {
  datacenters = ["dc1"]

  group "work" {
    task "mine" {
      driver = "docker"

      config {
        image = "docker.io/someone/definitely-not-a-miner:latest"
      }

      resources {
        cpu        = 1000
        memory     = 4096
        memory_max = 8192

        device "nvidia/gpu" {
          count = 1
        }
      }
    }
  }
}
