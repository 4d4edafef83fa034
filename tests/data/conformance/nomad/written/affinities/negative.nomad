job "ingest" {
  datacenters = ["east", "west"]
  type        = "service"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  # keep away from the racks that host the database
  affinity {
    attribute = "${meta.zone}"
    operator  = "="
    value     = "db-zone"
    weight    = -70
  }

  group "readers" {
    count = 3

    affinity {
      attribute = "${node.class}"
      operator  = "="
      value     = "storage"
      weight    = -30
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
