# Written for hclgpu's tests: runtime `${...}` references that the parser must keep as text
# (task environment, node attributes, meta), next to a `$${` escape and a vault block.
job "env-demo" {
  datacenters = ["dc1"]

  meta = {
    "release.channel" = "beta"
    owner             = "platform"
  }

  group "demo" {
    count = 1

    task "printenv" {
      driver = "docker"

      config {
        image   = "busybox:1.36"
        command = "/bin/sh"
        args = [
          "-c",
          "echo alloc=${NOMAD_ALLOC_ID} on ${node.unique.name} in ${node.datacenter}; echo literal=$${HOME}; env | sort",
        ]
      }

      env = {
        DATA_DIR      = "${NOMAD_ALLOC_DIR}/data"
        SECRETS       = "${NOMAD_SECRETS_DIR}"
        KERNEL        = "${attr.kernel.name}-${attr.cpu.arch}"
        CHANNEL       = "${NOMAD_META_release_channel}"
        RACK          = "${meta.rack}"
        "APP.MODE"    = "demo"
        SHELL_DEFAULT = "$${SHELL:-/bin/sh}"
      }

      vault {
        role          = "env-demo"
        change_mode   = "signal"
        change_signal = "SIGUSR1"
        env           = true
        disable_file  = false
      }

      template {
        destination = "secrets/app.env"
        env         = true
        data        = <<EOH
DB_PASSWORD={{ with secret "kv/data/env-demo" }}{{ .Data.data.password }}{{ end }}
NODE={{ env "node.unique.name" }}
EOH
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }
  }
}
