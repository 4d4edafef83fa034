# Tasks that change their node's metadata through the task API socket, with their workload
# identity. The constraint targets and the keys come in as variables.

variable "rack_target" {
  type = string
}

variable "drained_target" {
  type = string
}

variable "fresh_target" {
  type = string
}

variable "drained_key" {
  type = string
}

variable "fresh_key" {
  type = string
}

job "tag-node" {
  type = "batch"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  constraint {
    attribute = var.rack_target
    value     = "r7"
  }

  constraint {
    attribute = var.drained_target
    operator  = "is_set"
  }

  constraint {
    attribute = var.fresh_target
    operator  = "is_not_set"
  }

  group "tag" {
    task "set-key" {
      driver = "docker"

      config {
        image = "curlimages/curl:8.8.0"
        args = [
          "--silent", "--show-error",
          "--unix-socket", "${NOMAD_SECRETS_DIR}/api.sock",
          "--header", "Authorization: Bearer ${NOMAD_TOKEN}",
          "--data", "{\"Meta\": {\"${var.fresh_key}\": \"yes\"}}",
          "localhost/v1/client/metadata",
        ]
      }

      identity {
        env = true
      }

      resources {
        cpu    = 20
        memory = 24
        disk   = 32
      }
    }

    task "unset-key" {
      driver = "exec"

      config {
        command = "curl"
        args = [
          "--header", "Authorization: Bearer ${NOMAD_TOKEN}",
          "--unix-socket", "${NOMAD_SECRETS_DIR}/api.sock",
          "--data", "{\"Meta\": {\"${var.drained_key}\": null}}",
          "--silent", "--show-error",
          "localhost/v1/client/metadata",
        ]
      }

      identity {
        env = true
      }

      resources {
        cpu    = 20
        memory = 24
        disk   = 32
      }
    }
  }
}
