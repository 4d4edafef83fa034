# expect: HG114@3:3
locals {
  a = local.b
  b = local.a
}

job "gpu" {
  group "g" {}
}
