# expect: HG269@5:5
job "nightly" {
  type = "batch"
  group "run" {
    update {
      max_parallel = 1
    }
    task "run" {
      driver = "docker"
      config {
        image = "busybox:1.36"
      }
    }
  }
}
