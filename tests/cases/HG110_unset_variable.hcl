# expect: HG110@2:10
variable "image" {}

job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      config { image = var.image }
    }
  }
}
