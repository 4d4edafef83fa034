job "thumbnail" {
  datacenters = ["east"]
  type        = "batch"

  constraint {
    attribute = "${attr.kernel.name}"
    operator  = "set_contains_any"
    value     = "freebsd,linux"
  }

  # dispatched with `nomad job dispatch -meta size=256 thumbnail`
  parameterized {
    meta_optional = ["size"]
  }

  group "render" {
    task "resize" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "echo resize to ${NOMAD_META_size}"]
      }
    }
  }
}
