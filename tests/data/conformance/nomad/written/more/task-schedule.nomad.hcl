# Written for hclgpu's tests: a task that only runs inside a time window
# (`schedule`, an Enterprise feature), the window given with -var (see the .args file).
variable "window_start" {
  type = string
}

variable "window_end" {
  type = string
}

variable "zone" {
  type    = string
  default = "America/New_York"
}

locals {
  worker_script = <<-PY
    import time
    while True:
        print("working", flush=True)
        time.sleep(30)
  PY
}

job "business-hours-worker" {
  group "worker" {
    update {
      max_parallel = 0
    }

    restart {
      attempts = 0
      mode     = "fail"
    }

    reschedule {
      attempts  = 0
      unlimited = false
    }

    task "worker" {
      driver = "raw_exec"

      config {
        command = "python3"
        args    = ["-u", "-c", local.worker_script]
      }

      schedule {
        cron {
          start    = var.window_start
          end      = var.window_end
          timezone = var.zone
        }
      }

      resources {
        cpu    = 100
        memory = 64
      }
    }
  }
}
