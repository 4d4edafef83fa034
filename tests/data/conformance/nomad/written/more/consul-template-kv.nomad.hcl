// Written for hclgpu's tests: Consul-backed templates with the less common knobs.
job "edge-proxy" {
  datacenters = ["dc1"]

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "haproxy" {
    // tasks in this group read from Consul with the group's workload identity
    consul {
      namespace = "edge"
    }

    network {
      port "http" {
        static = 8080
      }
      port "stats" {}
    }

    task "haproxy" {
      driver = "docker"

      config {
        image   = "haproxy:2.9"
        ports   = ["http", "stats"]
        volumes = ["local/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg"]
      }

      // backend list, rendered from the catalog; HAProxy reloads on SIGUSR2
      template {
        destination   = "local/haproxy.cfg"
        change_mode   = "signal"
        change_signal = "SIGUSR2"
        splay         = "10s"
        data          = <<-CFG
          defaults
            mode http
            timeout connect 5s
            timeout client 30s
            timeout server 30s

          frontend www
            bind *:{{ env "NOMAD_PORT_http" }}
            default_backend apps

          backend apps
            balance roundrobin
          {{- range service "webapp" }}
            server {{ .Node }}-{{ .Port }} {{ .Address }}:{{ .Port }} check
          {{- end }}
        CFG

        wait {
          min = "2s"
          max = "20s"
        }
      }

      // tuning values from the KV store, with custom delimiters
      template {
        destination          = "${NOMAD_SECRETS_DIR}/tuning.env"
        env                  = true
        left_delimiter       = "[["
        right_delimiter      = "]]"
        error_on_missing_key = true
        change_mode          = "script"
        perms                = "0600"
        data                 = <<EOT
MAXCONN=[[ key "edge/haproxy/maxconn" ]]
NBTHREAD=[[ keyOrDefault "edge/haproxy/threads" "4" ]]
EOT

        change_script {
          command       = "/usr/local/bin/reload-tuning"
          args          = ["--graceful"]
          timeout       = "15s"
          fail_on_error = true
        }
      }

      resources {
        cpu    = 400
        memory = 192
      }
    }
  }
}
