# expect: HG222@10:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.model}"
            regexp    = "^(?!Tesla).*"
          }
        }
      }
    }
  }
}
