# Written for hclgpu's tests: a docker service whose settings are computed from variables,
# locals and functions (format, join, lookup, upper, merge, concat, coalesce, range, min).

variable "environment" {
  type    = string
  default = "staging"
}

variable "image_tag" {
  type    = string
  default = "1.27.0"
}

variable "replicas" {
  type = map(number)
  default = {
    staging    = 2
    production = 6
  }
}

locals {
  name      = format("web-%s", var.environment)
  image     = "nginx:${var.image_tag}-alpine"
  replicas  = lookup(var.replicas, var.environment, 1)
  extra_dcs = var.environment == "production" ? ["dc2", "dc3"] : []
  common_labels = {
    "com.example.team"  = "frontend"
    "com.example.env"   = var.environment
  }
  ports = [for i in range(2) : 8080 + i]
}

job "web" {
  name        = local.name
  datacenters = concat(["dc1"], local.extra_dcs)
  namespace   = coalesce("", "web")

  meta = {
    owner   = "frontend"
    version = var.image_tag
  }

  group "nginx" {
    count = min(local.replicas, 4)

    network {
      port "http" {
        to = local.ports[0]
      }
      port "admin" {
        to = local.ports[1]
      }
    }

    service {
      name = local.name
      port = "http"
      tags = [upper(var.environment), "nginx"]

      check {
        type     = "tcp"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "nginx" {
      driver = "docker"

      config {
        image = local.image
        ports = ["http", "admin"]

        labels = merge(local.common_labels, {
          "com.example.image" = local.image
        })

        logging {
          type = "json-file"
          config {
            max-size = "10m"
            max-file = "3"
          }
        }

        mount {
          type     = "bind"
          source   = "local"
          target   = "/etc/nginx/conf.d"
          readonly = true
        }
      }

      template {
        destination = "local/default.conf"
        data        = join("\n", [
          "server {",
          "  listen ${local.ports[0]};",
          "  location / { root /usr/share/nginx/html; }",
          "}",
        ])
      }

      resources {
        cpu    = 200
        memory = 96
      }
    }
  }
}
