# Written for hclgpu's tests: a sysbatch job, once on every node in every pool,
# that prunes old container images.
job "image-prune" {
  type        = "sysbatch"
  node_pool   = "all"
  datacenters = ["*"]

  periodic {
    cron             = "@daily"
    prohibit_overlap = true
  }

  group "prune" {
    task "docker-prune" {
      driver = "raw_exec"

      config {
        command = "/usr/bin/docker"
        args    = ["image", "prune", "--all", "--force", "--filter", "until=168h"]
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }
  }
}
