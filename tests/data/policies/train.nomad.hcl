job "train" {
  datacenters = ["dc1"]
  meta {
    team = "ml"
  }

  group "trainer" {
    count = 2

    task "torch" {
      driver = "docker"

      config {
        image = "docker.io/someone/trainer:1.0"
      }

      resources {
        cpu    = 2000
        memory = 16384

        device "nvidia/gpu" {
          count = 4
        }
      }
    }
  }
}
