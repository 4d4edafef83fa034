# Triton inference job driven by input variables. Override at submit time:
#   nomad job run -var environment=prod -var 'models=["resnet50","bert"]' variables.nomad.hcl
variable "environment" {
  type        = string
  default     = "staging"
  description = "Deployment environment: dev, staging or prod."

  validation {
    condition     = contains(["dev", "staging", "prod"], var.environment)
    error_message = "The environment must be one of dev, staging or prod."
  }
}

variable "datacenters" {
  type    = list(string)
  default = ["us-west-2a", "us-west-2b"]
}

variable "replicas" {
  type        = number
  default     = 3
  description = "Number of inference servers in prod (other environments run one)."

  validation {
    condition     = var.replicas >= 1 && var.replicas <= 8
    error_message = "The replicas value must be between 1 and 8."
  }
}

variable "models" {
  type        = list(string)
  default     = ["resnet50", "densenet_onnx"]
  description = "Models to load from the repository at start-up."
}

variable "gpus" {
  type = map(object({
    count      = number
    min_memory = string
    models     = list(string)
  }))
  default = {
    "nvidia/gpu" = { count = 1, min_memory = "16 GiB", models = ["L4", "A10G"] }
  }
  description = "Accelerators per server, keyed by device name (vendor/type)."
}

locals {
  sizes = {
    dev     = { cpu = 2000, memory = 8192 }
    staging = { cpu = 4000, memory = 16384 }
    prod    = { cpu = 8000, memory = 32768 }
  }
  size    = lookup(local.sizes, var.environment, local.sizes["dev"])
  is_prod = var.environment == "prod"
  # prod pins the validated Triton release; other environments try the next.
  image = format("nvcr.io/nvidia/tritonserver:%s", local.is_prod ? "24.05-py3" : "24.06-py3")
  meta  = merge({ team = "ml-serving", env = var.environment }, { tier = local.is_prod ? "critical" : "standard" })
  # One --load-model flag per requested model.
  model_args = [for m in var.models : "--load-model=${m}"]
}

job "triton" {
  datacenters = var.datacenters
  meta        = local.meta

  group "server" {
    count = local.is_prod ? var.replicas : 1

    network {
      port "http" { to = 8000 }
      port "grpc" { to = 8001 }
    }

    # Deregister from Consul before the tasks stop, so no request reaches a dying task.
    shutdown_delay = "5s"

    service {
      name     = "triton-${var.environment}"
      port     = "http"
      provider = "nomad"
      tags     = [for m in var.models : lower(m)]

      check {
        type     = "http"
        path     = "/v2/health/ready"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "tritonserver" {
      driver = "docker"

      config {
        image   = local.image
        command = "tritonserver"
        args = concat(
          ["--model-repository=s3://acme-models/${var.environment}", "--model-control-mode=explicit"],
          local.model_args,
        )
        ports = ["http", "grpc"]
      }

      env = {
        LOG_LEVEL   = upper(local.is_prod ? "warn" : "debug")
        MODEL_NAMES = join(",", var.models)
      }

      # HCL directives render the list at parse time; Nomad then writes the file.
      template {
        data        = <<-EOH
          # models for ${var.environment}
          models=%{ for i, m in var.models }${i > 0 ? "," : ""}${m}%{ endfor }
        EOH
        destination = "local/models.txt"
      }

      resources {
        cpu    = local.size.cpu
        memory = local.size.memory

        # Iterator "gpu": the default name "device" would shadow the literal
        # ${device.attr.memory} / ${device.model} targets the scheduler reads.
        dynamic "device" {
          for_each = var.gpus
          iterator = gpu
          labels   = [gpu.key]

          content {
            count = gpu.value.count
            constraint {
              attribute = "${device.attr.memory}"
              operator  = ">="
              value     = gpu.value.min_memory
            }

            affinity {
              attribute = "${device.model}"
              operator  = "regexp"
              value     = join("|", gpu.value.models)
              weight    = 50
            }
          }
        }
      }
    }
  }
}
