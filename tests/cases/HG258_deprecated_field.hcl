# expect: HG258@5:5
job "nightly" {
  type = "batch"
  periodic {
    cron = "0 2 * * *"
  }
  group "reindex" {
    task "reindex" {
      driver = "docker"
      config {
        image = "busybox:1.36"
      }
    }
  }
}
