job "node-agent" {
  datacenters = ["east", "west"]

  type = "system"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "agent" {
    count = 1

    # a system job's canaries are a percentage of the eligible nodes
    update {
      max_parallel     = 2
      min_healthy_time = "5s"
      healthy_deadline = "2m"
      auto_revert      = true
      canary           = 25
    }

    restart {
      attempts = 5
      interval = "2m"
      delay    = "3s"
      mode     = "delay"
    }

    task "collect" {
      driver = "raw_exec"

      config {
        command = "/bin/sleep"
        args    = ["86400"]
      }
    }
  }
}
