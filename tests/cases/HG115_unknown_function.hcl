# expect: HG115@3:17
job "gpu" {
  datacenters = uppercase(["dc1"])
}
