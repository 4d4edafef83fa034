job "node-agent" {
  datacenters = ["east", "west"]

  type = "system"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "agent" {
    count = 1

    restart {
      attempts = 5
      interval = "2m"
      delay    = "3s"
      mode     = "delay"
    }

    task "collect" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "sleep 86400"]
      }

      env {
        AGENT_GENERATION = "2"
      }
    }
  }
}
