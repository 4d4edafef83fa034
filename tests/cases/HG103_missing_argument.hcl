# expect: HG103@5:17
job "gpu" {
  group "g" {
    task "t" {
      lifecycle {
        sidecar = true
      }
    }
  }
}
