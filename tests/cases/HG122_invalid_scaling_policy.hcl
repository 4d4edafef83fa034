# expect: HG122@5:15
job "gpu" {
  group "g" {
    task "t" {
      scaling "gpu" {
        max = 4
      }
    }
  }
}
