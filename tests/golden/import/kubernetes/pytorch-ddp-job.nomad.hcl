job "llama-pretrain" {
  namespace = "research"
  type      = "batch"
  group "llama-pretrain" {
    task "trainer" {
      driver = "docker"
      config {
        image      = "nvcr.io/nvidia/pytorch:24.08-py3"
        entrypoint = ["torchrun"]
        args = [
          "--standalone",
          "--nproc_per_node=8",
          "pretrain.py",
          "--data=/data/tokens",
          "--checkpoint-dir=/checkpoints",
        ]
        work_dir = "/workspace"
        cap_add  = ["IPC_LOCK"]
        shm_size = 68719476736
        volumes  = ["../alloc/scratch:/checkpoints"]
      }

      env {
        NCCL_DEBUG      = "WARN"
        NCCL_IB_HCA     = "mlx5"
        OMP_NUM_THREADS = "12"
      }

      resources {
        cores  = 96
        memory = 1638400
        device "nvidia/gpu" {
          count = 8
          constraint {
            attribute = "${device.model}"
            value     = "NVIDIA H100 80GB HBM3"
          }
        }
      }
    }

    restart {
      attempts = 2
    }

    ephemeral_disk {
      size = 512000
    }
  }
}
