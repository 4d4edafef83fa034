# Written for hclgpu's tests: a sysbatch job that runs nvidia-smi once on every GPU node of the
# "gpu" node pool, with a job-level constraint on the device plugin's fingerprint.
job "gpu-node-check" {
  type      = "sysbatch"
  node_pool = "gpu"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  constraint {
    attribute = "${node.class}"
    operator  = "regexp"
    value     = "^gpu-(a100|h100|l4)$"
  }

  group "check" {
    task "nvidia-smi" {
      driver = "raw_exec"

      config {
        command = "/usr/bin/nvidia-smi"
        args    = ["--query-gpu=name,memory.total,driver_version", "--format=csv"]
      }

      resources {
        cpu    = 100
        memory = 64

        device "nvidia/gpu" {
          count = 1

          constraint {
            attribute = "${device.attr.driver_version}"
            operator  = "version"
            value     = ">= 535.0"
          }

          constraint {
            attribute = "${device.attr.power}"
            operator  = "<="
            value     = "700 W"
          }
        }
      }
    }
  }
}
