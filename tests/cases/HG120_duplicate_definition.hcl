# expect: HG120@6:3
locals {
  a = 1
}
locals {
  a = 2
}

job "gpu" {
  group "g" {}
}
