# Written for hclgpu's tests: GPU inference with TensorRT behind a small web front end.
# The server needs one NVIDIA GPU with at least 4 GiB of memory and prefers data-centre
# models; the models are fetched as artifacts.
job "tensorrt-inference" {
  datacenters = ["gpu-dc"]

  constraint {
    attribute = "${attr.driver.docker.runtimes}"
    operator  = "set_contains"
    value     = "nvidia"
  }

  group "server" {
    network {
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
      name = "trt-server"
      port = "http"
      tags = ["inference", "http"]

      check {
        type     = "http"
        path     = "/v2/health/ready"
        interval = "10s"
        timeout  = "2s"

        check_restart {
          grace = "60s"
          limit = 3
        }
      }
    }

    task "tritonserver" {
      driver = "docker"

      config {
        image    = "nvcr.io/nvidia/tritonserver:24.08-py3"
        command  = "tritonserver"
        args     = ["--model-repository=/local/models", "--log-verbose=0"]
        ports    = ["http", "grpc", "metrics"]
        runtime  = "nvidia"
        shm_size = 1073741824

        ulimit {
          memlock = "-1"
          stack   = "67108864"
        }
      }

      artifact {
        source      = "https://models.example.com/resnet50/model.plan"
        destination = "local/models/resnet50/1/model.plan"
        mode        = "file"
      }

      artifact {
        source      = "https://models.example.com/resnet50/config.pbtxt"
        destination = "local/models/resnet50/config.pbtxt"
        mode        = "file"
      }

      resources {
        cpu    = 4000
        memory = 8192

        device "nvidia/gpu" {
          count = 1

          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "4 GiB"
          }

          affinity {
            attribute = "${device.model}"
            operator  = "regexp"
            value     = "Tesla|A100|H100"
            weight    = 75
          }
        }
      }
    }
  }

  group "frontend" {
    count = 2

    network {
      port "web" {
        static = 8888
        to     = 5000
      }
    }

    task "web" {
      driver = "docker"

      config {
        image = "ghcr.io/example/trt-frontend:0.9"
        args  = ["serve", "--backend", "${TRT_BACKEND}"]
        ports = ["web"]
      }

      template {
        destination = "local/backend.env"
        env         = true
        data        = <<-EOH
          {{ range service "trt-server" }}TRT_BACKEND=http://{{ .Address }}:{{ .Port }}
          {{ end }}
        EOH
      }

      resources {
        cpu    = 500
        memory = 512
      }
    }
  }
}
