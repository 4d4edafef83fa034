job "scenario" {
  datacenters = ["dc1", "dc2"]

  group "g" {
    count = 3

    constraint {
      operator  = "distinct_property"
      attribute = "${meta.rack}"
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
