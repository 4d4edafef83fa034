# expect: HG221@9:24
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            operator = "distinct_hosts"
          }
        }
      }
    }
  }
}
