job "ingest" {
  datacenters = ["east", "west"]
  type        = "service"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "readers" {
    count = 6

    affinity {
      attribute = "${node.datacenter}"
      operator  = "="
      value     = "west"
      weight    = 90
    }

    task "read" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "while true; do sleep 60; done"]
      }
    }
  }
}
