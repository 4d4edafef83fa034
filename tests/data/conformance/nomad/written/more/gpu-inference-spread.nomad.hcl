# Written for hclgpu's tests: a GPU inference service spread over three regions' datacenters.
# NOTE: the spread targets add up to 110 per cent, which Nomad's parser accepts and its
# validator refuses.
job "llm-serving" {
  datacenters = ["us-east", "us-west", "eu-central"]

  spread {
    attribute = "${node.datacenter}"

    target "us-east" {
      percent = 50
    }
    target "us-west" {
      percent = 30
    }
    target "eu-central" {
      percent = 30
    }
  }

  group "vllm" {
    count = 6

    update {
      max_parallel      = 1
      health_check      = "checks"
      min_healthy_time  = "30s"
      healthy_deadline  = "15m"
      progress_deadline = "20m"
    }

    network {
      port "api" {
        to = 8000
      }
    }

    service {
      name = "llm-api"
      port = "api"

      check {
        type     = "http"
        path     = "/health"
        interval = "15s"
        timeout  = "5s"
      }
    }

    task "vllm" {
      driver = "docker"

      config {
        image = "vllm/vllm-openai:v0.5.3"
        args  = ["--model", "/local/model", "--tensor-parallel-size", "2", "--gpu-memory-utilization", "0.90"]
        ports = ["api"]
      }

      kill_timeout = "45s"

      resources {
        cpu    = 8000
        memory = 32768

        device "nvidia/gpu" {
          count = 2

          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "40 GiB"
          }

          constraint {
            attribute = "${device.attr.compute_capability}"
            operator  = "version"
            value     = ">= 8.0"
          }

          affinity {
            attribute = "${device.model}"
            operator  = "set_contains_any"
            value     = "NVIDIA H100 80GB HBM3,NVIDIA A100-SXM4-80GB"
            weight    = 100
          }
        }
      }
    }
  }
}
