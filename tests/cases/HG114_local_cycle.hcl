# expect: HG114@3:7, HG114@4:7
locals {
  a = local.b
  b = local.a
}

job "gpu" {
  group "g" {}
}
