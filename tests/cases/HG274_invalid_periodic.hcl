# expect: HG274@6:17
job "report" {
  type = "batch"
  periodic {
    crons     = ["0 2 * * *"]
    time_zone = "Mars/Olympus"
  }
  group "report" {
    task "report" {
      driver = "docker"
      config {
        image = "busybox:1.36"
      }
    }
  }
}
