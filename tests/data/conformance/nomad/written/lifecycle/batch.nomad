# Each task leaves a marker in the shared allocation directory and checks the markers of the
# tasks that must have run before it; a wrong order shows as a distinct exit code.
job "ordered-batch" {
  datacenters = ["east"]
  type        = "batch"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "steps" {
    task "setup" {
      lifecycle {
        hook = "prestart"
      }

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["local/setup.sh"]
      }

      template {
        destination = "local/setup.sh"
        data        = <<EOT
set -e
D=${NOMAD_ALLOC_DIR}
[ -e "$D/work.begun" ] && exit 21
touch "$D/setup.done"
EOT
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }

    task "work" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["local/work.sh"]
      }

      template {
        destination = "local/work.sh"
        data        = <<EOT
set -e
D=${NOMAD_ALLOC_DIR}
[ -e "$D/setup.done" ] || exit 22
touch "$D/work.begun"
sleep 8
[ -e "$D/after.begun" ] || exit 23
touch "$D/work.done"
EOT
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }

    task "after" {
      lifecycle {
        hook = "poststart"
      }

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["local/after.sh"]
      }

      template {
        destination = "local/after.sh"
        data        = <<EOT
set -e
D=${NOMAD_ALLOC_DIR}
[ -e "$D/work.begun" ] || exit 24
touch "$D/after.begun"
EOT
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }

    task "cleanup" {
      lifecycle {
        hook = "poststop"
      }

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["local/cleanup.sh"]
      }

      template {
        destination = "local/cleanup.sh"
        data        = <<EOT
set -e
D=${NOMAD_ALLOC_DIR}
[ -e "$D/work.done" ] || exit 25
touch "$D/cleanup.done"
EOT
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }
  }
}
