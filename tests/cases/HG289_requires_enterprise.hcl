# expect: HG289@13:22
# settings: {enterprise = false}
job "infer" {
  group "infer" {
    task "server" {
      driver = "docker"
      config {
        image = "vllm/vllm-openai:v0.6.3"
      }
      resources {
        device "nvidia/gpu" {}
        numa {
          affinity = "require"
          devices  = ["nvidia/gpu"]
        }
      }
    }
  }
}
