# expect: HG256@3:3
job "nightly" {
  periodic {
    crons = ["0 2 * * *"]
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
