# Written for hclgpu's tests, refused by Nomad on purpose: HCL1 let block arguments have quoted
# names ("cpu" = 500); HCL2, Nomad's parser since 1.0, does not.
job "legacy-quoted" {
  datacenters = ["dc1"]

  group "app" {
    task "app" {
      driver = "exec"

      config {
        command = "/usr/local/bin/app"
      }

      resources {
        "cpu"    = 500
        "memory" = 256
      }
    }
  }
}
