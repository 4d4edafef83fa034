# expect: HG210@9:25
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${attr.kernel.name}"
            value     = "linux"
          }
        }
      }
    }
  }
}
