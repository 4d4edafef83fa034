job "frontend" {
  datacenters = ["east", "west"]
  type        = "service"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  spread {
    attribute = "${node.datacenter}"
    weight    = 50
  }

  group "web" {
    count = 12

    spread {
      attribute = "${meta.zone}"
      weight    = 90

      target "zone-a" {
        percent = 50
      }

      target "zone-b" {
        percent = 25
      }

      target "zone-c" {
        percent = 25
      }
    }

    task "serve" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "while true; do sleep 60; done"]
      }
    }
  }
}
