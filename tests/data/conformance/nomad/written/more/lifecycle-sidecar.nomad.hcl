# Written for hclgpu's tests: every lifecycle hook in one service group.
# The order is recorded as marker files in the shared alloc directory.
job "ordered-start" {
  datacenters = ["dc1"]
  type        = "service"

  group "app" {
    task "migrate" {
      lifecycle {
        hook = "prestart"
      }

      driver = "docker"
      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "touch ${NOMAD_ALLOC_DIR}/migrated && sleep 2"]
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }

    task "log-shipper" {
      lifecycle {
        hook    = "prestart"
        sidecar = true
      }

      driver = "docker"
      config {
        image = "fluent/fluent-bit:3.0"
        args  = ["-c", "/local/fluent-bit.conf"]
      }

      template {
        destination = "local/fluent-bit.conf"
        data        = <<EOF
[INPUT]
    Name tail
    Path {{ env "NOMAD_ALLOC_DIR" }}/logs/*.stdout.*

[OUTPUT]
    Name  stdout
    Match *
EOF
      }

      resources {
        cpu    = 100
        memory = 64
      }
    }

    task "server" {
      leader = true
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "test -f ${NOMAD_ALLOC_DIR}/migrated && exec sleep infinity"]
      }

      kill_timeout = "20s"
      kill_signal  = "SIGINT"

      resources {
        cpu    = 200
        memory = 128
      }
    }

    task "warm-cache" {
      lifecycle {
        hook = "poststart"
      }

      driver = "docker"
      config {
        image   = "curlimages/curl:8.8.0"
        args    = ["--retry", "5", "--retry-connrefused", "http://${NOMAD_ADDR_app}/warm"]
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }

    task "deregister" {
      lifecycle {
        hook = "poststop"
      }

      driver = "docker"
      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "rm -f ${NOMAD_ALLOC_DIR}/migrated"]
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
