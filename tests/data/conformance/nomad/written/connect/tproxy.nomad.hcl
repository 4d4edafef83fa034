variable "replicas" {
  type    = number
  default = 3
}

job "ledger" {
  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "backend" {
    network {
      mode = "bridge"
    }

    service {
      name = "ledger-backend"
      port = "6060"

      check {
        type     = "http"
        path     = "/ready"
        expose   = true
        interval = "5s"
        timeout  = "2s"

        check_restart {
          limit = 0 # report only, never restart
        }
      }

      connect {
        sidecar_service {
          proxy {
            transparent_proxy {}
          }
        }
      }
    }

    task "backend" {
      driver = "docker"

      config {
        image          = "example.org/ledger-backend:0.9"
        auth_soft_fail = true
      }
    }
  }

  group "gateway" {
    network {
      mode = "bridge"

      port "http" {
        static = 8088
        to     = 8088
      }
    }

    service {
      name = "ledger-gateway"
      port = "8088"

      check {
        type     = "http"
        path     = "/ready"
        expose   = true
        task     = "proxy"
        interval = "5s"
        timeout  = "2s"

        check_restart {
          limit = 12
        }
      }

      connect {
        sidecar_service {
          proxy {
            transparent_proxy {}
          }
        }
      }
    }

    task "proxy" {
      driver = "docker"

      env {
        BACKEND_URL = "http://ledger-backend.virtual.consul"
      }

      config {
        image          = "haproxy:2.9"
        args           = ["-f", "/local/haproxy.cfg"]
        auth_soft_fail = true
      }

      template {
        destination = "local/haproxy.cfg"
        data        = <<EOT
global
  maxconn 256

defaults
  mode http
  timeout connect 5s
  timeout client 30s
  timeout server 30s

frontend public
  bind *:8088
  default_backend ledger

backend ledger
  server virtual ledger-backend.virtual.consul:80
EOT
      }

      restart {
        delay    = "10s"
        attempts = 2
        mode     = "fail"
      }
    }
  }
}
