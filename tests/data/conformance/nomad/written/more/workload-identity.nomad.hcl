# Written for hclgpu's tests: the default workload identity and named ones for
# Consul, Vault and an outside audience.
job "identities" {
  type = "batch"

  group "ids" {
    task "default-only" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "cat"
        args    = ["${NOMAD_SECRETS_DIR}/nomad_token"]
      }

      identity {
        file = true
      }
    }

    task "named" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "sh"
        args    = ["-c", "ls ${NOMAD_SECRETS_DIR}"]
      }

      identity {
        env  = true
        file = false
      }

      identity {
        name          = "vault_default"
        aud           = ["vault.io"]
        ttl           = "1h"
        change_mode   = "signal"
        change_signal = "SIGHUP"
        file          = true
      }

      identity {
        name     = "consul_default"
        aud      = ["consul.io"]
        ttl      = "30m"
        env      = false
        file     = true
        filepath = "local/consul.jwt"
      }

      identity {
        name        = "partner-api"
        aud         = ["https://partner.example.com", "partner"]
        ttl         = "15m"
        change_mode = "restart"
        file        = true
      }

      resources {
        cpu    = 20
        memory = 32
        disk   = 64
      }
    }
  }
}
