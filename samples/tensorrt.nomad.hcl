# TensorRT Inference Server (Nomad 0.9 device-plugin article): a GPU back end
# serves ResNet-50; a web front end finds it through Consul and calls it.
# Networks are declared per group, as Nomad has wanted since 0.12 (the article's
# task-level `network` and docker `port_map` are deprecated).
job "tensorrt" {
  datacenters = ["dc1"]

  group "back" {
    # Dynamic host ports, mapped to the server's ports in the container.
    network {
      port "http" { to = 8000 }
      port "grpc" { to = 8001 }
      port "metrics" { to = 8002 }
    }

    task "rtserver" {
      driver = "docker"

      config {
        image   = "nvcr.io/nvidia/tensorrtserver:19.02-py3"
        command = "trtserver"
        # Artifacts below are downloaded into this task's local/ directory.
        args = [
          "--model-store=${NOMAD_TASK_DIR}/models"
        ]
        # The article writes 1024, meant as 1 GB: docker takes bytes here (HG259).
        shm_size = 1073741824
        ports    = ["http", "grpc", "metrics"]
        # Pinned (unswappable) memory for CUDA host buffers.
        ulimit {
          memlock = "-1"
          stack   = "67108864"
        }
      }

      # Deregister from Consul before the server stops, so no request reaches a dying task.
      shutdown_delay = "5s"

      # Registered in Consul; the front end looks this name up.
      service {
        name = "tensorrt-back-rtserver"
        port = "http"
        tags = ["http"]

        check {
          type     = "http"
          port     = "http"
          path     = "/api/health/ready"
          interval = "5s"
          timeout  = "1s"
        }

        check_restart {
          grace = "30s"
        }
      }

      # The ResNet-50 model repository, one file per artifact.
      artifact {
        source      = "http://download.caffe2.ai.s3.amazonaws.com/models/resnet50/predict_net.pb"
        destination = "local/models/resnet50_netdef/1/model.netdef"
        mode        = "file"
      }

      artifact {
        source      = "http://download.caffe2.ai.s3.amazonaws.com/models/resnet50/init_net.pb"
        destination = "local/models/resnet50_netdef/1/init_model.netdef"
        mode        = "file"
      }

      artifact {
        source      = "https://raw.githubusercontent.com/NVIDIA/tensorrt-inference-server/v1.0.0/docs/examples/model_repository/resnet50_netdef/config.pbtxt"
        destination = "local/models/resnet50_netdef/config.pbtxt"
        mode        = "file"
      }

      artifact {
        source      = "https://raw.githubusercontent.com/NVIDIA/tensorrt-inference-server/v1.0.0/docs/examples/model_repository/resnet50_netdef/resnet50_labels.txt"
        destination = "local/models/resnet50_netdef/resnet50_labels.txt"
        mode        = "file"
      }

      resources {
        cpu    = 8192
        memory = 8192

        # One NVIDIA GPU with at least 4 GiB of memory, preferably a Tesla.
        device "nvidia/gpu" {
          count = 1

          # Hard requirement: the plugin reports memory in MiB; units compare.
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "4 GiB"
          }

          # Soft preference: rank Tesla models higher.
          affinity {
            attribute = "${device.model}"
            operator  = "regexp"
            value     = "Tesla"
          }
        }
      }
    }
  }

  group "front" {
    # The web UI is reachable on a fixed host port.
    network {
      port "http" {
        static = 8888
        to     = 5000
      }
    }

    task "web" {
      driver = "docker"

      config {
        image = "nvidia/tensorrt-labs:frontend"
        # RTSERVER comes from the env file rendered by the template below.
        args = [
          "main.py", "${RTSERVER}"
        ]
        ports = ["http"]
      }

      # Point the front end at the first healthy rtserver instance.
      template {
        data        = <<-EOH
          RTSERVER = {{ with service "tensorrt-back-rtserver" }}{{ with index . 0 }} http://{{ .Address }}:{{ .Port }} {{ end }}{{ end }}
        EOH
        destination = "local/rtserver.env"
        env         = true
      }

      resources {
        cpu    = 1024
        memory = 1024
      }
    }
  }
}
