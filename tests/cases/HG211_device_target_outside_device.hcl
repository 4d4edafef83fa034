# expect: HG211@7:21
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      constraint {
        attribute = "${device.model}"
        value     = "A100"
      }
    }
  }
}
