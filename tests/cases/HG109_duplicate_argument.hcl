# expect: HG109@5:5
job "gpu" {
  group "g" {
    count = 1
    count = 2
  }
}
