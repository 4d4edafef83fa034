# expect: HG206@9:19, HG206@20:9
job "inference" {
  group "gpu" {
    task "server" {
      driver = "docker"
      config {
        image = "nvcr.io/nvidia/tritonserver:24.08-py3"
        # the NVIDIA runtime, but no `device "nvidia/gpu"` request
        runtime = "nvidia"
      }
    }

    task "llm" {
      driver = "docker"
      config {
        image = "vllm/vllm-openai:v0.6.1"
      }

      env {
        NVIDIA_VISIBLE_DEVICES = "0,1"
      }
    }

    task "trainer" {
      driver = "docker"
      config {
        image   = "nvcr.io/nvidia/pytorch:24.08-py3"
        runtime = "nvidia"
      }

      resources {
        device "nvidia/gpu" {
          count = 1
        }
      }
    }
  }
}
