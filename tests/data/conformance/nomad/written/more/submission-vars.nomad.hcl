# Written for hclgpu's tests: a batch job whose inputs all arrive as -var arguments
# (see submission-vars.nomad.hcl.args), of every simple and collection type.

variable "greeting" {
  type        = string
  description = "what the task prints first"
}

variable "repeat" {
  type = number
}

variable "shout" {
  type    = bool
  default = false
}

variable "targets" {
  type    = list(string)
  default = ["world"]
}

variable "labels" {
  type    = map(string)
  default = {}
}

variable "region" {
  default = "global"
}

job "submission-vars" {
  type   = "batch"
  region = var.region

  meta = merge(var.labels, { repeat = "${var.repeat}" })

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "say" {
    task "echo" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args = [
          "-c",
          "for i in $(seq ${var.repeat}); do echo \"$MESSAGE\"; done",
        ]
      }

      env {
        MESSAGE = var.shout ? upper("${var.greeting}, ${join(" and ", var.targets)}!") : "${var.greeting}, ${join(" and ", var.targets)}."
        TARGETS = length(var.targets)
      }

      resources {
        cpu    = 20
        memory = 24
      }
    }
  }
}
