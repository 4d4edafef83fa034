job "frontend" {
  datacenters = ["east", "west"]
  type        = "service"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "web" {
    count = 8

    # no targets: the allocations are spread evenly over the values seen
    spread {
      attribute = "${node.datacenter}"
      weight    = 80
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
