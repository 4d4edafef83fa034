# expect: HG242@10:18, HG242@11:18
job "tiny" {
  group "tiny" {
    task "sidecar" {
      driver = "docker"
      config {
        image = "busybox:1.36"
      }
      resources {
        cpu    = 0
        memory = 5
      }
    }
  }
}
