job "site-builder" {
  meta {
    BUNDLE_DIR = "local/bundle/in"
  }

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "builder" {
    task "build" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "sleep 600"]
      }

      # the artifact's destination comes from the job's meta, through the task environment
      artifact {
        source      = "https://example.org/bundle.tar.gz"
        destination = "${NOMAD_META_BUNDLE_DIR}"
      }

      # a template read from the task directory, written to the secrets directory
      template {
        source      = "${NOMAD_TASK_DIR}/bundle/in/site.tpl"
        destination = "${NOMAD_SECRETS_DIR}/bundle/site.conf"
      }

      # a template written to the directory all tasks of the allocation share
      template {
        destination = "${NOMAD_ALLOC_DIR}/built-by.txt"
        data        = <<EOH
Built by the site-builder job; every task of the allocation can read this.
EOH
      }

      resources {
        cpu    = 100
        memory = 96
      }
    }
  }
}
