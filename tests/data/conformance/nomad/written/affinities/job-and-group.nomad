job "ingest" {
  datacenters = ["east", "west"]
  type        = "service"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  affinity {
    attribute = "${meta.zone}"
    operator  = "="
    value     = "edge-zone"
    weight    = 80
  }

  group "readers" {
    count = 3

    affinity {
      attribute = "${node.class}"
      operator  = "="
      value     = "storage"
      weight    = 60
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
