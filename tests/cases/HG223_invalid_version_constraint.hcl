# expect: HG223@10:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.attr.driver_version}"
            version   = "=> 535"
          }
        }
      }
    }
  }
}
