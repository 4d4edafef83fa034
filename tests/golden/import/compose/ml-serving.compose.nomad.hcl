job "ml-serving" {
  type = "service"
  group "triton" {
    task "triton" {
      driver = "docker"
      config {
        image   = "nvcr.io/nvidia/tritonserver:24.05-py3"
        command = "tritonserver"
        args = [
          "--model-repository=/models/triton",
          "--strict-readiness=true",
          "--log-verbose=0",
        ]
        ports    = ["port_8000", "port_8001", "port_8002"]
        volumes  = ["/srv/models:/models:ro"]
        shm_size = 2147483648
        ulimit {
          memlock = "-1"
          stack   = "67108864"
        }
        cap_add = ["IPC_LOCK"]
        labels = ({
          "com.acme.team" = "ml-serving"
        })
      }

      env {
        CUDA_MODULE_LOADING = "LAZY"
        TRITON_CACHE_DIR    = "/tmp/triton-cache"
      }

      service {
        name = "triton"
        port = "port_8000"
        check {
          type     = "http"
          path     = "/v2/health/ready"
          interval = "15s"
          timeout  = "5s"
        }
        provider = "nomad"
      }

      resources {
        cpu    = 8000
        memory = 32768
        device "nvidia/gpu" {
          count = 2
        }
      }
    }

    network {
      port "port_8000" {
        static = 8000
      }

      port "port_8001" {
        static = 8001
      }

      port "port_8002" {
        static = 8002
      }
    }
  }

  group "vllm" {
    task "model-fetch" {
      driver = "docker"
      lifecycle {
        hook = "prestart"
      }

      config {
        image   = "ghcr.io/acme/hf-downloader:0.9.2"
        command = "huggingface-cli"
        args = [
          "download",
          "meta-llama/Meta-Llama-3-8B-Instruct",
          "--local-dir",
          "/models/llama3-8b",
        ]
        volumes = ["/srv/models:/models"]
      }

      env {
        HF_HOME                   = "/models/hf-cache"
        HF_HUB_ENABLE_HF_TRANSFER = "1"
        HF_TOKEN                  = "${HF_TOKEN}"
      }
    }

    task "vllm" {
      driver = "docker"
      config {
        image = "vllm/vllm-openai:v0.4.3"
        args = [
          "--model",
          "/models/llama3-8b",
          "--served-model-name",
          "llama3-8b",
          "--gpu-memory-utilization",
          "0.90",
          "--max-model-len",
          "8192",
        ]
        ports    = ["port_8000"]
        volumes  = ["/srv/models:/models:ro"]
        ipc_mode = "host"
      }

      env {
        HF_HOME                   = "/models/hf-cache"
        HF_HUB_ENABLE_HF_TRANSFER = "1"
        VLLM_LOGGING_LEVEL        = "INFO"
      }

      service {
        name = "vllm"
        port = "port_8000"
        check {
          type     = "http"
          path     = "/health"
          interval = "30s"
          timeout  = "10s"
        }
        provider = "nomad"
      }

      resources {
        cpu        = 6000
        memory     = 32768
        memory_max = 49152
        device "nvidia/gpu" {}
      }
      kill_timeout = "1m"
      kill_signal  = "SIGINT"
    }

    network {
      port "port_8000" {
        static = 8080
        to     = 8000
      }
    }
  }

  group "reranker" {
    task "reranker" {
      driver = "docker"
      config {
        image   = "ghcr.io/huggingface/text-embeddings-inference:1.2"
        args    = ["--model-id", "BAAI/bge-reranker-large", "--port", "80"]
        ports   = ["port_80"]
        volumes = ["tei-cache:/data"]
      }

      resources {
        device "nvidia/gpu" {}
      }
    }

    network {
      port "port_80" {
        static = 8081
        to     = 80
      }
    }
  }

  group "redis" {
    task "redis" {
      driver = "docker"
      config {
        image   = "redis:7.2-alpine"
        command = "redis-server"
        args    = ["--save", "", "--maxmemory", "2gb", "--maxmemory-policy", "allkeys-lru"]
        ports   = ["port_6379"]
      }

      service {
        name = "redis"
        check {
          type     = "script"
          command  = "redis-cli"
          args     = ["ping"]
          interval = "10s"
          timeout  = "3s"
        }
      }

      resources {
        cpu    = 1000
        memory = 2560
      }
    }

    network {
      port "port_6379" {
        to = 6379
      }
    }
  }

  group "prometheus" {
    task "prometheus" {
      driver = "docker"
      config {
        image = "prom/prometheus:v2.52.0"
        args = [
          "--config.file=/etc/prometheus/prometheus.yml",
          "--storage.tsdb.retention.time=15d",
        ]
        ports = ["port_9090"]
        volumes = [
          "./prometheus.yml:/etc/prometheus/prometheus.yml:ro",
          "prometheus-data:/prometheus",
        ]
      }

      resources {
        cpu    = 500
        memory = 1024
      }

      logs {
        max_files     = 3
        max_file_size = 10
      }
    }

    network {
      port "port_9090" {
        static = 9090
      }
    }
  }

  group "dashboard" {
    task "dashboard" {
      driver = "docker"
      config {
        image = "ghcr.io/acme/serving-dashboard:0.3.1"
        ports = ["port_3000"]
      }

      resources {
        cpu    = 250
        memory = 256
      }
    }

    network {
      port "port_3000" {
        static = 3000
      }
    }
  }
}
