# Written for hclgpu's tests: a multi-GPU training run as a batch job. The number of GPUs and
# the memory each needs are variables; the constraints use units ("24 GiB", "1.4 GHz").
variable "gpus" {
  type        = number
  default     = 4
  description = "GPUs for one training worker"
}

variable "min_gpu_memory" {
  type    = string
  default = "24 GiB"
}

variable "dataset" {
  type    = string
  default = "s3::https://s3.amazonaws.com/example-datasets/imagenet-subset.tar.gz"
}

locals {
  nccl_env = {
    NCCL_DEBUG          = "WARN"
    NCCL_SOCKET_IFNAME  = "eth0"
    NCCL_IB_DISABLE     = "1"
  }
  epochs = 30
}

job "resnet-train" {
  type        = "batch"
  datacenters = ["gpu-dc"]
  priority    = 70

  group "trainer" {
    count = 1

    restart {
      attempts = 2
      delay    = "30s"
      interval = "30m"
      mode     = "fail"
    }

    ephemeral_disk {
      size    = 51200
      migrate = false
    }

    task "train" {
      driver = "docker"

      config {
        image    = "nvcr.io/nvidia/pytorch:24.05-py3"
        command  = "torchrun"
        args     = [
          "--nproc_per_node=${var.gpus}",
          "/local/train.py",
          "--epochs=${local.epochs}",
          "--data=${NOMAD_ALLOC_DIR}/data",
        ]
        shm_size = 8589934592
        ipc_mode = "host"
      }

      artifact {
        source      = var.dataset
        destination = "${NOMAD_ALLOC_DIR}/data"
      }

      env = merge(local.nccl_env, {
        WORLD_SIZE = var.gpus
      })

      resources {
        cpu        = 16000
        memory     = 65536
        memory_max = 98304

        device "nvidia/gpu" {
          count = var.gpus

          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = var.min_gpu_memory
          }

          constraint {
            attribute = "${device.attr.graphics_clock}"
            operator  = ">"
            value     = "1.4 GHz"
          }

          affinity {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "80 GiB"
            weight    = 90
          }

          affinity {
            attribute = "${device.model}"
            value     = "Tesla T4"
            weight    = -50
          }
        }
      }
    }
  }
}
