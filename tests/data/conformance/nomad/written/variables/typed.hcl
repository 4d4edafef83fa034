variable "greeting" {
  type = string
}

variable "repeat" {
  type = number
}

variable "loud" {
  type = bool
}

job "echo-vars" {
  type = "batch"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "echo" {
    task "print" {
      driver = "raw_exec"

      config {
        command = "printf"
        args    = ["%s\n", "greeting=${var.greeting} repeat=${var.repeat} loud=${var.loud}"]
      }

      resources {
        cpu    = 20
        memory = 24
      }
    }
  }
}
