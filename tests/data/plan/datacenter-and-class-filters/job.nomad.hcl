job "scenario" {
  datacenters = ["dc1"]

  group "g" {
    count = 2

    constraint {
      attribute = "${node.class}"
      value     = "gpu"
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
