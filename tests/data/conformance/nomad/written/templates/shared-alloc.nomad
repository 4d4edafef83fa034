job "handoff" {
  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "relay" {
    # the producer starts first and keeps running beside the others
    task "producer" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "sleep 600"]
      }

      lifecycle {
        hook    = "prestart"
        sidecar = true
      }

      artifact {
        source      = "https://example.org/a.txt"
        destination = "../alloc/a.txt"
      }

      template {
        destination = "${NOMAD_ALLOC_DIR}/${NOMAD_TASK_NAME}.dir"
        data        = <<EOH
{{ env "NOMAD_ALLOC_DIR" }}
EOH
      }

      template {
        destination = "${NOMAD_ALLOC_DIR}/handoff.env"
        env         = true
        data        = <<EOH
PRODUCED_BY={{ env "NOMAD_TASK_NAME" }}
EOH
      }

      resources {
        cpu    = 100
        memory = 48
      }
    }

    task "container" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "sleep 600"]
      }

      artifact {
        source      = "https://example.org/b.txt"
        destination = "../alloc/b.txt"
      }

      template {
        destination = "${NOMAD_ALLOC_DIR}/${NOMAD_TASK_NAME}.dir"
        data        = <<EOH
{{ env "NOMAD_ALLOC_DIR" }}
EOH
      }

      # reads what the producer wrote into the shared directory
      template {
        source      = "${NOMAD_ALLOC_DIR}/handoff.env"
        destination = "${NOMAD_LOCAL_DIR}/handoff.env"
        env         = true
      }

      resources {
        cpu    = 100
        memory = 48
      }
    }

    task "isolated" {
      driver = "exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "sleep 600"]
      }

      artifact {
        source      = "https://example.org/c.txt"
        destination = "${NOMAD_ALLOC_DIR}/c.txt"
      }

      template {
        destination = "${NOMAD_ALLOC_DIR}/${NOMAD_TASK_NAME}.dir"
        data        = <<EOH
{{ env "NOMAD_ALLOC_DIR" }}
EOH
      }

      template {
        source      = "${NOMAD_ALLOC_DIR}/handoff.env"
        destination = "${NOMAD_LOCAL_DIR}/handoff.env"
        env         = true
      }

      resources {
        cpu    = 100
        memory = 48
      }
    }
  }
}
