job "scenario" {
  datacenters = ["dc1", "dc2"]

  group "g" {
    count = 1

    affinity {
      attribute = "${meta.zone}"
      value     = "fast"
      weight    = 100
    }

    task "t" {
      driver = "docker"

      config {
        image = "example/app:1"
      }

      resources {
        
      }
    }
  }
}
