# expect: HG102@5:7
job "gpu" {
  group "g" {
    task "t" {
      device "nvidia/gpu" {}
    }
  }
}
