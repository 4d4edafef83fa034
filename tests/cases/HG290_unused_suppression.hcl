# expect: HG290@3:5
job "gpu" {
    # hclgpu-ignore: HG291
  datacenters = ["dc1"]
  group "g" {
    task "t" {
      driver = "docker"
    }
  }
}
