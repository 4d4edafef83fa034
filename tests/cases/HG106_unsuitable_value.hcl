# expect: HG106@5:22
job "gpu" {
  group "g" {
    task "t" {
      kill_timeout = "5 minutes"
    }
  }
}
