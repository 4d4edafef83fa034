# Written for hclgpu's tests: a periodic batch job with several cron lines, a time zone
# and no overlapping runs.
job "weekly-report" {
  type     = "batch"
  priority = 30

  periodic {
    crons            = ["0 6 * * 1", "30 18 * * 5"]
    time_zone        = "Europe/Berlin"
    prohibit_overlap = true
  }

  group "report" {
    count = 1

    task "render" {
      driver = "exec"

      config {
        command = "/opt/reports/bin/render"
        args    = ["--week", "current", "--format", "pdf"]
      }

      env {
        TZ          = "Europe/Berlin"
        REPORT_KIND = "weekly"
      }

      logs {
        max_files     = 3
        max_file_size = 5
      }

      resources {
        cpu    = 750
        memory = 512
      }
    }
  }
}
