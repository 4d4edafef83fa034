# expect: HG275@5:15
job "encode" {
  type = "batch"
  parameterized {
    payload = "needed"
  }
  group "encode" {
    task "ffmpeg" {
      driver = "docker"
      config {
        image = "jrottenberg/ffmpeg:7.0-nvidia"
      }
    }
  }
}
