# Written for hclgpu's tests: a batch pipeline with setup and teardown tasks around the main one,
# written with the hooks first and the drivers last (attribute order does not matter).
job "etl-nightly" {
  type = "batch"

  group "etl" {
    restart {
      attempts = 1
      delay    = "10s"
      mode     = "fail"
    }

    reschedule {
      attempts  = 2
      interval  = "1h"
      unlimited = false
    }

    task "fetch" {
      lifecycle { hook = "prestart" }

      artifact {
        source      = "https://example.com/exports/daily.csv.gz"
        destination = "${NOMAD_ALLOC_DIR}/input"
        options {
          archive = false
        }
      }

      driver = "exec"
      config {
        command = "/bin/gunzip"
        args    = ["-k", "${NOMAD_ALLOC_DIR}/input/daily.csv.gz"]
      }
    }

    task "transform" {
      driver = "exec"
      config {
        command = "/usr/local/bin/etl"
        args    = ["--in", "${NOMAD_ALLOC_DIR}/input/daily.csv", "--out", "${NOMAD_ALLOC_DIR}/output"]
      }
      resources {
        cpu    = 1500
        memory = 2048
      }
    }

    task "report" {
      lifecycle {
        hook    = "poststop"
        sidecar = false
      }
      driver = "exec"
      config {
        command = "/usr/local/bin/notify"
        args    = ["etl finished for ${NOMAD_JOB_ID}"]
      }
    }
  }
}
