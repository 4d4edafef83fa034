# Written for hclgpu's tests: placement preferences at job, group and task level.
# A cache tier that would rather sit on SSD nodes in one rack, and away from
# nodes that are being drained for maintenance.
job "cache-affinities" {
  datacenters = ["eu-west-1a", "eu-west-1b"]
  type        = "service"

  affinity {
    attribute = "${node.datacenter}"
    value     = "eu-west-1a"
    weight    = 60
  }

  affinity {
    attribute = "${meta.maintenance}"
    operator  = "="
    value     = "planned"
    weight    = -80
  }

  group "memcached" {
    count = 3

    affinity {
      attribute = "${meta.storage}"
      operator  = "set_contains_any"
      value     = "nvme,ssd"
      weight    = 40
    }

    affinity {
      attribute = "${attr.kernel.version}"
      operator  = "version"
      value     = ">= 5.15"
      weight    = 15
    }

    network {
      port "memcache" {
        to = 11211
      }
    }

    task "memcached" {
      driver = "docker"

      config {
        image = "memcached:1.6-alpine"
        args  = ["-m", "900", "-c", "2048"]
        ports = ["memcache"]
      }

      affinity {
        attribute = "${meta.rack}"
        operator  = "regexp"
        value     = "^r1[0-9]$"
        weight    = 25
      }

      resources {
        cpu    = 300
        memory = 1024
      }
    }
  }
}
