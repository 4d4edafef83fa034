# One task per way of asking for the workload identity; each prints what it received.
job "token-check" {
  datacenters = ["east"]
  type        = "batch"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "probe" {
    # no identity block at all
    task "absent" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "ls -l secrets/; printenv NOMAD_TOKEN || true"]
      }

      resources {
        cpu    = 20
        memory = 24
        disk   = 32
      }
    }

    # an empty identity block: the defaults
    task "defaults" {
      identity {}

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "ls -l secrets/; printenv NOMAD_TOKEN || true"]
      }

      resources {
        cpu    = 20
        memory = 24
        disk   = 32
      }
    }

    task "in-env" {
      identity {
        env  = true
        file = false
      }

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "ls -l secrets/; printenv NOMAD_TOKEN || true"]
      }

      resources {
        cpu    = 20
        memory = 24
        disk   = 32
      }
    }

    task "in-file" {
      identity {
        file = true
      }

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "ls -l secrets/; printenv NOMAD_TOKEN || true"]
      }

      resources {
        cpu    = 20
        memory = 24
        disk   = 32
      }
    }

    # the token file somewhere other than secrets/
    task "elsewhere" {
      identity {
        file     = true
        filepath = "local/identity.jwt"
      }

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "ls -l local/; printenv NOMAD_TOKEN || true"]
      }

      resources {
        cpu    = 20
        memory = 24
        disk   = 32
      }
    }

    # both switches written out and off
    task "neither" {
      identity {
        env  = false
        file = false
      }

      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "ls -l secrets/; printenv NOMAD_TOKEN || true"]
      }

      resources {
        cpu    = 20
        memory = 24
        disk   = 32
      }
    }
  }
}
