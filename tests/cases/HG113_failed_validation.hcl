# expect: HG113@4:13
variable "gpus" {
  type    = number
  default = 0
  validation {
    condition     = var.gpus > 0
    error_message = "The job needs at least one GPU."
  }
}

job "gpu" {
  group "g" {}
}
