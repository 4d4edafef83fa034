job "scenario" {
  datacenters = ["dc1", "dc2"]

  group "g" {
    count = 4

    spread {
      attribute = "${meta.rack}"

      target "r1" {
        percent = 50
      }

      target "r2" {
        percent = 50
      }
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
