# expect: HG291@3:3
job "gpu" {
  # hclgpu-ignore: HG101
  datacenters = ["dc1"]
  group "g" {
    task "t" {
      driver = "docker"
    }
  }
}
