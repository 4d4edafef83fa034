# Written for hclgpu's tests: spreading allocations over zones and racks, with and without targets.
job "api-spread" {
  datacenters = ["zone-a", "zone-b", "zone-c"]

  spread {
    attribute = "${node.datacenter}"
    weight    = 100

    target "zone-a" {
      percent = 50
    }

    target "zone-b" {
      percent = 30
    }

    target "zone-c" {
      percent = 20
    }
  }

  group "api" {
    count = 10

    spread {
      attribute = "${meta.rack}"
      weight    = 50
    }

    network {
      port "http" {
        to = 8080
      }
    }

    task "api" {
      driver = "docker"

      config {
        image = "ghcr.io/example/api:2.3.1"
        ports = ["http"]
      }

      resources {
        cpu    = 250
        memory = 256
      }
    }
  }
}
