# BERT inference on AWS Inferentia2 (inf2 instances) with TorchServe and the
# Neuron SDK. The container gets its Neuron device through the oci-neuron
# runtime (the Neuron OCI prestart hook), which reads AWS_NEURON_VISIBLE_DEVICES.
job "bert-neuron" {
  datacenters = ["us-east-1a", "us-east-1b"]
  type        = "service"

  group "bert" {
    count = 2

    # Only Inferentia2 instances, from Nomad's AWS environment fingerprint.
    constraint {
      attribute = "${attr.platform.aws.instance-type}"
      operator  = "regexp"
      value     = "^inf2\\."
    }

    network {
      port "http" { to = 8080 }
    }

    update {
      max_parallel      = 1
      min_healthy_time  = "30s"
      healthy_deadline  = "10m"
      progress_deadline = "15m"
      auto_revert       = true
    }

    # Deregister from Consul before the tasks stop, so no request reaches a dying task.
    shutdown_delay = "5s"

    service {
      name     = "bert-neuron"
      port     = "http"
      provider = "nomad"

      # TorchServe answers /ping once the compiled model is loaded.
      check {
        type     = "http"
        path     = "/ping"
        interval = "15s"
        timeout  = "3s"
      }
    }

    task "torchserve" {
      driver = "docker"

      config {
        image = "public.ecr.aws/neuron/pytorch-inference-neuronx:2.1.2-neuronx-py310-sdk2.18.2-ubuntu20.04"
        # Registered by the Neuron SDK in /etc/docker/daemon.json; the docker
        # plugin's allow_runtimes on the client must list it.
        runtime = "oci-neuron"
        command = "torchserve"
        args = [
          "--start", "--foreground", "--ncs",
          "--models", "bert=bert-base-neuronx.mar",
          "--ts-config", "/local/config.properties",
        ]
        ports = ["http"]
      }

      env {
        NEURON_RT_LOG_LEVEL = "WARNING"
      }

      # Model archive compiled ahead of time with torch-neuronx.
      artifact {
        source      = "https://models.acme.internal/neuron/sdk-2.18/bert-base-neuronx.mar"
        destination = "local/models/bert-base-neuronx.mar"
        mode        = "file"
      }

      template {
        data        = <<-EOH
          inference_address=http://0.0.0.0:8080
          management_address=http://127.0.0.1:8081
          metrics_address=http://127.0.0.1:8082
          default_workers_per_model=2
          model_store={{ env "NOMAD_TASK_DIR" }}/models
        EOH
        destination = "local/config.properties"
      }

      resources {
        cpu    = 3000
        memory = 12288

        # One Inferentia2 device (two NeuronCores). Nomad ships no Neuron
        # device plugin: clients need a third-party plugin that fingerprints
        # vendor "aws", type "neuron" and sets AWS_NEURON_VISIBLE_DEVICES.
        device "aws/neuron" {
          count = 1
        }
      }
    }
  }
}
