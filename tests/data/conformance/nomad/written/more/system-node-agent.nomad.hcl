# Written for hclgpu's tests: a system job that runs a metrics agent on every Linux node
# of a custom node pool, rolling out with canaries.
job "node-exporter" {
  type      = "system"
  node_pool = "edge"
  priority  = 75

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  constraint {
    attribute = "${node.class}"
    operator  = "!="
    value     = "storage"
  }

  update {
    max_parallel     = 2
    canary           = 1
    min_healthy_time = "15s"
    healthy_deadline = "3m"
    auto_revert      = true
  }

  group "exporter" {
    network {
      port "metrics" {
        static = 9100
      }
    }

    restart {
      attempts = 5
      interval = "10m"
      delay    = "20s"
      mode     = "delay"
    }

    service {
      name     = "node-exporter"
      provider = "nomad"
      port     = "metrics"
      tags     = ["prometheus", "node"]

      check {
        name     = "metrics-up"
        type     = "http"
        path     = "/metrics"
        interval = "30s"
        timeout  = "3s"
      }
    }

    task "exporter" {
      driver = "docker"

      config {
        image        = "prom/node-exporter:v1.8.1"
        network_mode = "host"
        pid_mode     = "host"
        args         = ["--path.rootfs=/host"]
        volumes      = ["/:/host:ro,rslave"]
      }

      resources {
        cpu    = 100
        memory = 64
      }
    }
  }
}
