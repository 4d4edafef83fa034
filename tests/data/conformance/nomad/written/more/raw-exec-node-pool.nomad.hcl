# Written for hclgpu's tests: raw_exec and exec tasks generated with `dynamic` blocks,
# placed in a custom node pool, with checks on dynamic ports.
variable "workers" {
  type    = list(string)
  default = ["ingest", "index", "compact"]
}

job "pipeline-workers" {
  node_pool   = "batch-workers"
  datacenters = ["dc1"]

  group "workers" {
    network {
      dynamic "port" {
        for_each = var.workers
        labels   = [port.value]
        content {}
      }
    }

    dynamic "task" {
      for_each = var.workers
      iterator = w
      labels   = [w.value]

      content {
        driver = w.key == 0 ? "raw_exec" : "exec"

        config {
          command = "/usr/local/bin/worker"
          args    = ["--role", w.value, "--listen", ":$${NOMAD_PORT_${w.value}}"]
        }

        service {
          name     = "worker-${w.value}"
          provider = "nomad"
          port     = w.value

          check {
            type     = "http"
            path     = "/ready"
            port     = w.value
            interval = "15s"
            timeout  = "3s"
          }
        }

        resources {
          cpu    = 100 * (w.key + 1)
          memory = 64
        }
      }
    }
  }
}
