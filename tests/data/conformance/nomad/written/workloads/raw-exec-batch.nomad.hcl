variable "instances" {
  type    = number
  default = 1
}

job "status-page-batch" {
  type = "batch"

  group "pages" {
    count = var.instances

    network {
      port "web" {
        to = 0
      }
    }

    service {
      provider = "consul"
      name     = "status-page-batch"

      check {
        name     = "status-page-batch-http"
        type     = "http"
        path     = "/status.html"
        interval = "15s"
        timeout  = "2s"
        port     = "web"
      }
    }

    task "serve" {
      driver = "raw_exec"

      config {
        command = "busybox"
        args    = ["httpd", "-f", "-p", "${NOMAD_PORT_web}", "-h", "local"]
      }

      template {
        destination = "local/status.html"
        perms       = "0640"
        data        = <<EOH
<!doctype html>
<title>{{ env "NOMAD_JOB_NAME" }}</title>
<p>Allocation {{ env "NOMAD_ALLOC_ID" }} of {{ env "NOMAD_JOB_NAME" }} is up on node {{ env "node.unique.name" }}.</p>
EOH
      }

      resources {
        cpu    = 40
        memory = 48
      }
    }
  }
}
