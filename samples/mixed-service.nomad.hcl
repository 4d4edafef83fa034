# Semantic search: CPU API tier, GPU embedding tier (Triton), Redis cache.
job "search" {
  datacenters = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
  type        = "service"

  # Spread every group's allocations evenly over the three zones.
  spread {
    attribute = "${node.datacenter}"
    weight    = 100
  }

  group "api" {
    count = 3

    network {
      port "http" { to = 8080 }
    }

    # Rolling update with one canary, promoted automatically when healthy.
    update {
      max_parallel      = 1
      canary            = 1
      healthy_deadline  = "3m"
      progress_deadline = "10m"
      auto_promote      = true
      auto_revert       = true
    }

    # Deregister from Consul before the tasks stop, so no request reaches a dying task.
    shutdown_delay = "5s"

    service {
      name     = "search-api"
      port     = "http"
      provider = "nomad"
      check {
        type     = "http"
        path     = "/healthz"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "api" {
      driver = "docker"

      config {
        image = "ghcr.io/acme/search-api:3.12.0"
        ports = ["http"]
      }

      # Upstream addresses, re-rendered when instances come and go.
      template {
        data        = <<-EOH
          EMBEDDER_URLS={{ range $i, $s := nomadService "search-embedder" }}{{ if $i }},{{ end }}http://{{ .Address }}:{{ .Port }}{{ end }}
          REDIS_ADDR={{ with nomadService "search-cache" }}{{ with index . 0 }}{{ .Address }}:{{ .Port }}{{ end }}{{ end }}
        EOH
        destination = "local/upstreams.env"
        env         = true
      }

      resources {
        cpu    = 1000
        memory = 512
      }
    }
  }

  group "embedder" {
    count = 2

    network {
      port "http" { to = 8000 }
    }

    shutdown_delay = "5s"

    service {
      name     = "search-embedder"
      port     = "http"
      provider = "nomad"
      check {
        type     = "http"
        path     = "/v2/health/ready"
        interval = "10s"
        timeout  = "3s"
      }
    }

    task "triton" {
      driver = "docker"

      config {
        image    = "nvcr.io/nvidia/tritonserver:24.05-py3"
        command  = "tritonserver"
        args     = ["--model-repository=s3://acme-models/embeddings", "--strict-readiness=true"]
        ports    = ["http"]
        shm_size = 1073741824
      }

      resources {
        cpu    = 4000
        memory = 16384
        device "nvidia/gpu" {
          count = 1
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "20 GiB"
          }

          # Prefer the inference cards (L4 / A10G) over larger training GPUs.
          affinity {
            attribute = "${device.model}"
            operator  = "regexp"
            value     = "L4|A10G"
            weight    = 60
          }
        }
      }
    }
  }

  group "cache" {
    network {
      port "redis" { to = 6379 }
    }

    shutdown_delay = "5s"

    service {
      name     = "search-cache"
      port     = "redis"
      provider = "nomad"
      check {
        type     = "tcp"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "redis" {
      driver = "docker"

      config {
        image = "redis:7.2-alpine"
        args  = ["redis-server", "--maxmemory", "768mb", "--maxmemory-policy", "allkeys-lru"]
        ports = ["redis"]
      }

      resources {
        cpu    = 500
        memory = 1024
      }
    }
  }
}
