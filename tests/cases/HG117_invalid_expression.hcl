# expect: HG117@4:13
job "gpu" {
  group "g" {
    count = "two" * 2
  }
}
