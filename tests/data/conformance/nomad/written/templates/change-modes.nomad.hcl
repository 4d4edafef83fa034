job "config-watch" {
  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "docker-consumer" {
    consul {}

    task "consume" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "sleep 600"]
      }

      # a new set of backends is picked up by the program itself: no signal, no restart
      template {
        data        = <<EOT
{{- range service "config-source" }}
backend {{ .Address }}:{{ .Port }}
{{- end }}
EOT
        destination = "${NOMAD_TASK_DIR}/backends.txt"
        change_mode = "noop"
      }

      # a changed key restarts the task
      template {
        data        = <<EOT
feature_flags: {{ key "config-watch/flags" }}
job: {{ env "NOMAD_JOB_NAME" }}
EOT
        destination = "${NOMAD_TASK_DIR}/flags.yml"
        change_mode = "restart"
      }

      resources {
        cpu    = 100
        memory = 48
      }
    }
  }

  group "exec-consumer" {
    consul {}

    task "consume" {
      driver = "exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "sleep 600"]
      }

      template {
        data        = <<EOT
{{- range service "config-source" }}
backend {{ .Address }}:{{ .Port }}
{{- end }}
EOT
        destination = "${NOMAD_TASK_DIR}/backends.txt"
        change_mode = "noop"
      }

      template {
        data        = <<EOT
feature_flags: {{ key "config-watch/flags" }}
job: {{ env "NOMAD_JOB_NAME" }}
EOT
        destination = "${NOMAD_TASK_DIR}/flags.yml"
        change_mode = "restart"
      }

      resources {
        cpu    = 100
        memory = 48
      }
    }
  }

  group "source" {
    count = 2

    network {
      mode = "bridge"

      port "api" {
        to = -1
      }
    }

    service {
      name = "config-source"
      port = "api"
    }

    task "serve" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "sleep 600"]
      }

      resources {
        cpu    = 100
        memory = 48
      }
    }
  }
}
