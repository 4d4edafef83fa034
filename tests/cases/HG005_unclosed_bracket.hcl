# expect: HG005@2:13
job "train" {
  group "gpu" {
    count = 1
  }
