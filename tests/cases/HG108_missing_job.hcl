# expect: HG108@1:1
variable "image" {
  default = "nvidia/cuda:12.4.0-base-ubuntu22.04"
}
