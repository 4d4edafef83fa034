# GPU inference: an NVIDIA Triton server that loads one model from artifacts, and a small
# web client that finds the server through its service registration.
job "inference" {
  datacenters = ["east"]

  group "server" {
    task "triton" {
      driver = "docker"

      config {
        image   = "nvcr.io/nvidia/tritonserver:24.05-py3"
        command = "tritonserver"
        args = [
          "--model-repository=${NOMAD_TASK_DIR}/repository",
          "--strict-model-config=false"
        ]

        # shared memory for the backends, in MB
        shm_size = 2048

        port_map {
          http    = 8000
          grpc    = 8001
          metrics = 8002
        }

        ulimit {
          memlock = "-1"
          stack   = "67108864"
        }
      }

      service {
        port = "http"
        tags = ["triton", "http"]

        check {
          type     = "http"
          port     = "http"
          path     = "/v2/health/ready"
          interval = "10s"
          timeout  = "2s"
        }

        check_restart {
          grace = "60s"
        }
      }

      artifact {
        source      = "https://models.example.org/densenet/1/model.onnx"
        destination = "local/repository/densenet_onnx/1/model.onnx"
        mode        = "file"
      }

      artifact {
        source      = "https://models.example.org/densenet/config.pbtxt"
        destination = "local/repository/densenet_onnx/config.pbtxt"
        mode        = "file"
      }

      artifact {
        source      = "https://models.example.org/densenet/labels.txt"
        destination = "local/repository/densenet_onnx/labels.txt"
        mode        = "file"
      }

      resources {
        cpu    = 4096
        memory = 16384

        network {
          mbits = 20
          port "http" {}
          port "grpc" {}
          port "metrics" {}
        }

        device "nvidia/gpu" {
          count = 1

          # the model needs 8 GiB of GPU memory
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "8 GiB"
          }

          # prefer data-centre parts
          affinity {
            attribute = "${device.model}"
            operator  = "regexp"
            value     = "(A100|H100|L40S)"
          }
        }
      }
    }
  }

  group "client" {
    task "ui" {
      driver = "docker"

      config {
        image = "example.org/triton-web-client:0.3"
        args = [
          "serve", "--server", "${TRITON_URL}"
        ]

        port_map {
          http = 8080
        }
      }

      resources {
        cpu    = 500
        memory = 512

        network {
          mbits = 10
          port "http" { static = "8880" }
        }
      }

      template {
        data        = <<EOH
          TRITON_URL = {{ range service "inference-server-triton" }}http://{{ .Address }}:{{ .Port }}{{ break }}{{ end }}
        EOH
        destination = "local/triton.env"
        env         = true
      }
    }
  }
}
