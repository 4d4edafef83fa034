# expect: HG112@4:13
variable "gpus" {
  type = number
  default = "two"
}

job "gpu" {
  group "g" {}
}
