# expect: HG208@11:16, HG208@25:25, HG208@41:25
job "inference" {
  group "gpu" {
    task "small" {
      driver = "docker"
      config {
        image = "nvcr.io/nvidia/tritonserver:24.08-py3"
      }
      resources {
        # a typo in the profile: the A100 40GB has 1g.10gb
        device "nvidia/gpu/NVIDIA A100-SXM4-40GB MIG 1g.10gbb" {}
      }
    }

    task "medium" {
      driver = "docker"
      config {
        image = "nvcr.io/nvidia/tritonserver:24.08-py3"
      }
      resources {
        device "nvidia/gpu" {
          # an A100 40GB profile on an H100, whose half is 3g.40gb
          constraint {
            attribute = "${device.model}"
            value     = "NVIDIA H100 80GB HBM3 MIG 3g.20gb"
          }
        }
      }
    }

    task "large" {
      driver = "docker"
      config {
        image = "nvcr.io/nvidia/tritonserver:24.08-py3"
      }
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.model}"
            operator  = "="
            value     = "NVIDIA A30 MIG 7g.24gb"
          }
        }
      }
    }

    task "fine" {
      driver = "docker"
      config {
        image = "nvcr.io/nvidia/tritonserver:24.08-py3"
      }
      resources {
        # profiles the GPU has, and a GPU whose profiles are not on record
        device "nvidia/gpu/NVIDIA H200 MIG 1g.18gb" {}
        device "nvidia/gpu/NVIDIA L40S MIG 1g.5gb" {}
      }
    }
  }
}
