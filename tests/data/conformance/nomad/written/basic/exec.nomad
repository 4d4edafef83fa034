job "worker" {
  type        = "service"
  datacenters = ["east"]

  group "pool" {
    count = 1

    task "loop" {
      driver = "exec"

      config {
        command = "/usr/bin/tail"
        args    = ["-f", "/dev/null"]
      }

      resources {
        cpu    = 750
        memory = 384
      }
    }
  }
}
