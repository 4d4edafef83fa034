job "nightly-report" {
  type = "batch"

  constraint {
    attribute = "${attr.kernel.name}"
    operator  = "set_contains_any"
    value     = "freebsd,linux"
  }

  # a date that comes round rarely: 04:30 on the 29th of February, whatever the weekday
  periodic {
    cron             = "30 4 29 2 *"
    prohibit_overlap = true
  }

  group "report" {
    task "build" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "date; sleep 3"]
      }
    }
  }
}
