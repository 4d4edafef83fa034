# A task that runs only inside a daily window (a task `schedule`, Nomad Enterprise).
# The window comes from variables; the program is a local defined after the job.

variable "opens" {}
variable "closes" {}

job "office-hours" {
  type = "service"

  group "desk" {
    update { max_parallel = 0 }

    restart {
      attempts = 0
      mode     = "fail"
    }

    reschedule {
      attempts = 0
    }

    task "assistant" {
      schedule {
        cron {
          start    = var.opens
          end      = var.closes
          timezone = "Europe/Berlin"
        }
      }

      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", local.program]
      }
    } # task
  }   # group
}     # job

locals {
  program = <<EOF
trap 'echo "$(date) closing"; exit 0' INT TERM
echo "$(date) open"
while true; do
  sleep 30
done
EOF
}
