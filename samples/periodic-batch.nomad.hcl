# Nightly re-index: embeds the documents changed during the day on one GPU
# and rebuilds the vector index. Runs at 02:00 UTC; never two runs at once.
job "nightly-reindex" {
  datacenters = ["dc1"]
  type        = "batch"
  priority    = 40

  periodic {
    crons            = ["0 2 * * *"]
    prohibit_overlap = true
    time_zone        = "UTC"
  }

  group "reindex" {
    # Retry twice in place, then once on another node; after that the next
    # night's run picks up the remaining documents.
    restart {
      attempts = 2
      interval = "1h"
      delay    = "2m"
      mode     = "fail"
    }

    reschedule {
      attempts  = 1
      interval  = "6h"
      unlimited = false
    }

    ephemeral_disk {
      size = 51200
    }

    task "embed" {
      driver = "docker"

      config {
        image   = "ghcr.io/acme/embedding-reindexer:2.4.1"
        command = "python"
        args = [
          "-m", "reindex",
          "--since=24h",
          "--model=BAAI/bge-large-en-v1.5",
          "--batch-size=256",
          "--work-dir=${NOMAD_ALLOC_DIR}/data",
        ]
      }

      # Database and vector-store credentials from Nomad Variables.
      template {
        data        = <<-EOH
          {{ with nomadVar "nomad/jobs/nightly-reindex" }}
          PG_DSN={{ .pg_dsn }}
          QDRANT_URL={{ .qdrant_url }}
          QDRANT_API_KEY={{ .qdrant_api_key }}
          {{ end }}
        EOH
        destination = "secrets/reindex.env"
        env         = true
      }

      env {
        HF_HOME                 = "${NOMAD_ALLOC_DIR}/data/hf-cache"
        TOKENIZERS_PARALLELISM  = "false"
        PYTORCH_CUDA_ALLOC_CONF = "expandable_segments:True"
      }

      resources {
        cpu    = 4000
        memory = 24576

        # bge-large at batch 256 in fp16 needs a GPU with 16 GiB or more.
        device "nvidia/gpu" {
          count = 1

          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "16 GiB"
          }
        }
      }
    }
  }
}
