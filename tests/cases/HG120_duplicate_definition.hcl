# expect: HG120@6:3
locals {
  a = 1
}
locals {
  a = 2
}

job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "nvidia/cuda:12.4.0-base-ubuntu22.04"
      }
    }
  }
}
