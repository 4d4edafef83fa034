# expect: HG259@9:20, HG259@18:20
job "inference" {
  group "triton" {
    task "server" {
      driver = "docker"
      config {
        image = "nvcr.io/nvidia/tritonserver:24.08-py3"
        # meant as 1 GB: the docker driver reads bytes
        shm_size = 1024
      }
    }

    task "loader" {
      driver = "docker"
      config {
        image = "pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime"
        # docker takes no unit here (podman's shm_size does)
        shm_size = "16g"
      }
    }
  }
}
