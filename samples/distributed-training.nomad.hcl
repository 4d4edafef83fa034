# Data-parallel fine-tuning on one 8-GPU node (A100 or H100, NVLink) with
# torchrun. Batch job: runs to completion, retries from the last checkpoint.
job "llm-finetune" {
  datacenters = ["us-east-1a", "us-east-1b"]
  type        = "batch"
  priority    = 70

  meta {
    run_id     = "llama3-8b-sft-0427"
    owner_team = "ml-platform"
  }

  # Retry failed allocations on another node, backing off between attempts.
  reschedule {
    attempts       = 3
    interval       = "24h"
    delay          = "5m"
    delay_function = "exponential"
    max_delay      = "1h"
    unlimited      = false
  }

  group "trainer" {
    count = 1

    # Only Linux clients tagged by the operators as having NVLink GPUs.
    constraint {
      attribute = "${attr.kernel.name}"
      value     = "linux"
    }

    constraint {
      attribute = "${meta.gpu_interconnect}"
      value     = "nvlink"
    }

    # Restart in place once (transient NCCL errors), then fail and reschedule.
    restart {
      attempts = 1
      interval = "30m"
      delay    = "30s"
      mode     = "fail"
    }

    # Local scratch for the dataset cache and checkpoints; kept on reschedule.
    ephemeral_disk {
      size    = 204800
      sticky  = true
      migrate = true
    }

    task "torchrun" {
      driver = "docker"

      config {
        image   = "nvcr.io/nvidia/pytorch:24.05-py3"
        command = "torchrun"
        args = [
          "--standalone",
          "--nnodes=1",
          "--nproc_per_node=8",
          "train.py",
          "--config=${NOMAD_TASK_DIR}/sft.yaml",
          "--output-dir=${NOMAD_ALLOC_DIR}/data/checkpoints"
        ]
        # The recipe repository fetched by the first artifact below.
        work_dir = "${NOMAD_TASK_DIR}/repo"
        # 32 GiB /dev/shm for the data loaders (docker shm_size is in bytes).
        shm_size = 34359738368
        ulimit {
          memlock = "-1"
          stack   = "67108864"
        }
      }

      env {
        NCCL_DEBUG                      = "WARN"
        NCCL_P2P_LEVEL                  = "NVL"
        NCCL_IB_DISABLE                 = "0"
        NCCL_SOCKET_IFNAME              = "eth0"
        TORCH_NCCL_ASYNC_ERROR_HANDLING = "1"
        OMP_NUM_THREADS                 = "8"
        HF_HOME                         = "${NOMAD_ALLOC_DIR}/data/hf-cache"
      }

      # Training code and its config, fetched before the task starts.
      artifact {
        source      = "git::https://github.com/acme-ml/llm-recipes.git//sft?ref=v1.8.2"
        destination = "local/repo"
      }

      artifact {
        source      = "https://models.acme.internal/configs/llama3-8b-sft.yaml"
        destination = "local/sft.yaml"
        mode        = "file"
      }

      # Time to write a final checkpoint on SIGTERM (capped by the client's
      # max_kill_timeout, which the GPU nodes raise to 5m).
      kill_signal  = "SIGTERM"
      kill_timeout = "3m"

      resources {
        cpu    = 64000
        memory = 491520

        # All eight GPUs of a data-center class node.
        device "nvidia/gpu" {
          count = 8

          # NVML model names, e.g. "NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3".
          constraint {
            attribute = "${device.model}"
            operator  = "regexp"
            value     = "A100|H100"
          }

          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "40 GiB"
          }

          # driver_version is a string such as "535.104.05".
          constraint {
            attribute = "${device.attr.driver_version}"
            operator  = "version"
            value     = ">= 535.0"
          }

          # Prefer H100 when both kinds are free.
          affinity {
            attribute = "${device.model}"
            operator  = "regexp"
            value     = "H100"
            weight    = 75
          }
        }
      }
    }
  }
}
