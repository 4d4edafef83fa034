job "triton" {
  namespace = "gpu-inference"
  type      = "service"
  group "triton" {
    count = 2
    constraint {
      attribute = "$${meta.nvidia.com/gpu.present}"
      value     = "true"
    }

    constraint {
      attribute = "${attr.cpu.arch}"
      value     = "amd64"
    }

    task "tritonserver" {
      driver = "docker"
      config {
        image      = "nvcr.io/nvidia/tritonserver:24.08-py3"
        entrypoint = ["tritonserver"]
        args       = ["--model-repository=/models", "--strict-readiness=true"]
        ports      = ["http", "grpc", "metrics"]
        volumes    = ["local/config.pbtxt:/models/resnet50/config.pbtxt:ro"]
        shm_size   = 2147483648
        runtime    = "nvidia"
      }

      env {
        NVIDIA_DRIVER_CAPABILITIES = "compute,utility"
        POD_NAME                   = "${NOMAD_ALLOC_NAME}"
      }

      resources {
        cpu        = 4000
        memory     = 16384
        memory_max = 24576
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.model}"
            operator  = "regexp"
            value     = "^(NVIDIA A100-SXM4-80GB|NVIDIA H100 80GB HBM3)$"
          }

          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "40 GiB"
          }

          affinity {
            attribute = "${device.attr.driver_version}"
            operator  = "version"
            value     = ">= 550.0"
            weight    = 80
          }
        }
      }
      kill_timeout = "1m"
      template {
        destination = "local/config.pbtxt"
        data        = <<EOT
name: "resnet50"
platform: "tensorrt_plan"
max_batch_size: 64
instance_group [{ kind: KIND_GPU, count: 2 }]
EOT
      }
    }

    update {
      max_parallel     = 1
      min_healthy_time = "15s"
    }

    network {
      mode = "bridge"
      port "http" {
        to = 8000
      }

      port "grpc" {
        to = 8001
      }

      port "metrics" {
        to = 8002
      }
    }

    service {
      name = "triton"
      port = "http"
      check {
        name                     = "readiness"
        type                     = "http"
        path                     = "/v2/health/ready"
        interval                 = "5s"
        timeout                  = "1s"
        failures_before_critical = 3
      }

      check {
        name     = "liveness"
        type     = "http"
        path     = "/v2/health/live"
        interval = "10s"
        timeout  = "1s"
        check_restart {
          limit = 5
          grace = "30s"
        }
      }
    }

    service {
      name = "triton"
      port = "grpc"
    }
  }
  meta = {
    "prometheus.io/scrape" = "true"
  }
}
