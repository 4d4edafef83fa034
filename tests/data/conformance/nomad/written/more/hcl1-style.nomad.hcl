# Written for hclgpu's tests: an old-style job, as written for Nomad's first HCL parser, that
# the HCL2 parser still takes: quoted numbers and booleans, a task network with mbits,
# port_map in the docker config, blocks on one line, and interpolated attribute names.
job "legacy-redis" {
  datacenters = ["dc1"]
  type = "service"
  priority = "60"

  constraint {
    attribute = "${attr.kernel.name}"
    value = "linux"
  }

  constraint { distinct_hosts = true }

  update {
    stagger = "30s"
    max_parallel = "1"
  }

  group "cache" {
    count = "2"

    restart { attempts = 10 }

    ephemeral_disk {
      sticky = "true"
      size = "300"
    }

    task "redis" {
      driver = "docker"
      config {
        image = "redis:3.2"
        port_map {
          db = 6379
        }
      }

      resources {
        cpu = "500"
        memory = 256
        network {
          mbits = 10
          port "db" {}
        }
      }

      service {
        name = "${TASKGROUP}-redis"
        tags = ["global", "cache"]
        port = "db"
        check {
          name = "alive"
          type = "tcp"
          interval = "10s"
          timeout = "2s"
        }
      }
    }
  }
}
