job "infer" {
  group "Triton_GPU" {
    task "server" {
      driver = "docker"

      config {
        image = "nvcr.io/nvidia/tritonserver:24.05-py3"
      }

      resources {
        memory     = 8192
        memory_max = 16384

        device "nvidia/gpu" {
          count = 1
        }
      }
    }
  }
}
