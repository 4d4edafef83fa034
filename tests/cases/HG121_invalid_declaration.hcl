# expect: HG121@3:10
variable "gpus" {
  type = integer
}

job "gpu" {
  group "g" {}
}
