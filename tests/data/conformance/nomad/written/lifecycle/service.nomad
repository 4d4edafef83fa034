# The same ordering in a service job, with a prestart sidecar that runs for the whole life
# of the allocation.
job "ordered-service" {
  datacenters = ["east"]
  type        = "service"

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
D=${NOMAD_ALLOC_DIR}
[ -e "$D/main.begun" ] && exit 31
touch "$D/setup.done"
EOT
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }

    task "companion" {
      lifecycle {
        hook    = "prestart"
        sidecar = true
      }

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["local/companion.sh"]
      }

      template {
        destination = "local/companion.sh"
        data        = <<EOT
D=${NOMAD_ALLOC_DIR}
touch "$D/companion.up"
while true; do
  sleep 5
done
EOT
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }

    task "main" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["local/main.sh"]
      }

      template {
        destination = "local/main.sh"
        data        = <<EOT
D=${NOMAD_ALLOC_DIR}
stop() {
  rm -f "$D/main.begun"
  exit 0
}
trap stop TERM
[ -e "$D/setup.done" ] || exit 32
[ -e "$D/companion.up" ] || exit 33
touch "$D/main.begun"
while true; do
  sleep 1
done
EOT
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }

    task "announce" {
      lifecycle {
        hook = "poststart"
      }

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["local/announce.sh"]
      }

      template {
        destination = "local/announce.sh"
        data        = <<EOT
D=${NOMAD_ALLOC_DIR}
[ -e "$D/main.begun" ] || exit 34
touch "$D/announced"
EOT
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }

    task "farewell" {
      lifecycle {
        hook = "poststop"
      }

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["local/farewell.sh"]
      }

      template {
        destination = "local/farewell.sh"
        data        = <<EOT
D=${NOMAD_ALLOC_DIR}
[ -e "$D/main.begun" ] && exit 35
touch "$D/farewell.done"
EOT
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }
  }
}
