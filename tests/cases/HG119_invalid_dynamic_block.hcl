# expect: HG119@5:18
job "gpu" {
  group "g" {
    dynamic "constraint" {
      for_each = 2
      content {}
    }
  }
}
