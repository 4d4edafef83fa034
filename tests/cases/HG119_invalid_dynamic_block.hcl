# expect: HG119@5:18
job "gpu" {
  group "g" {
    dynamic "task" {
      for_each = 2
      content {}
    }
  }
}
