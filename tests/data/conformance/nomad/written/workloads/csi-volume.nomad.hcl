variable "instances" {
  type    = number
  default = 1
}

job "shared-files" {
  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "files" {
    volume "scratch" {
      type            = "csi"
      source          = "nfs-scratch"
      attachment_mode = "file-system"
      access_mode     = "multi-node-multi-writer"
    }

    network {
      port "http" {
        to = 8080
      }
    }

    task "serve" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "busybox"
        args    = ["httpd", "-f", "-v", "-p", "8080", "-h", "/alloc"]
        ports   = ["http"]
      }

      volume_mount {
        volume      = "scratch"
        destination = "${NOMAD_TASK_DIR}/scratch"
        read_only   = false
      }

      service {
        provider = "nomad"
        port     = "http"

        check {
          type     = "http"
          path     = "/whoami.txt"
          interval = "5s"
          timeout  = "2s"
        }
      }

      resources {
        cpu    = 50
        memory = 48
      }
    }

    # runs once after the server started; not kept running
    task "stamp" {
      driver = "docker"

      config {
        image   = "alpine:3.20"
        command = "/bin/sh"
        args    = ["-c", "echo '${NOMAD_ALLOC_ID}' > ${NOMAD_ALLOC_DIR}/whoami.txt"]
      }

      lifecycle {
        hook    = "poststart"
        sidecar = false
      }

      volume_mount {
        volume      = "scratch"
        destination = "${NOMAD_TASK_DIR}/scratch"
        read_only   = false
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
