# expect: HG105@6:9
job "gpu" {
  group "g" {
    task "t" {
      resources {
        device {
          count = 1
        }
      }
    }
  }
}
