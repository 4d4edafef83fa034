# expect: HG301@9:7, HG302@4:5
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "busybox:1.36"
      }
      artifact {
        source = "https://example.com/model.tar.gz"
      }
    }
  }
}
