# expect: HG111@10:28
variable "image" {
  default = "nvidia/cuda:12.4.0-base-ubuntu22.04"
}

job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      config { image = var.imgae }
    }
  }
}
