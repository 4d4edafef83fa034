# Written for hclgpu's tests: a CSI volume per allocation with mount options,
# mounted read-write by the database and read-only by a backup sidecar.
job "postgres" {
  datacenters = ["dc1"]

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "db" {
    count = 2

    volume "pgdata" {
      type            = "csi"
      source          = "pgdata"
      read_only       = false
      attachment_mode = "file-system"
      access_mode     = "single-node-writer"
      per_alloc       = true

      mount_options {
        fs_type     = "ext4"
        mount_flags = ["noatime", "nodiratime"]
      }
    }

    volume "scratch" {
      type   = "host"
      source = "fast-scratch"
    }

    network {
      port "pg" {
        to = 5432
      }
    }

    task "postgres" {
      driver = "docker"

      config {
        image = "postgres:16"
        ports = ["pg"]
      }

      volume_mount {
        volume           = "pgdata"
        destination      = "/var/lib/postgresql/data"
        read_only        = false
        propagation_mode = "private"
      }

      volume_mount {
        volume      = "scratch"
        destination = "/scratch"
      }

      env {
        PGDATA = "/var/lib/postgresql/data/pgdata"
      }

      resources {
        cpu    = 1000
        memory = 2048
      }
    }

    task "backup" {
      lifecycle {
        hook    = "poststart"
        sidecar = true
      }

      driver = "docker"

      config {
        image   = "postgres:16"
        command = "/bin/sh"
        args    = ["-c", "while true; do pg_dumpall -h ${NOMAD_HOST_IP_pg} -p ${NOMAD_HOST_PORT_pg} > /scratch/dump.sql; sleep 3600; done"]
      }

      volume_mount {
        volume      = "pgdata"
        destination = "/snapshot"
        read_only   = true
      }

      volume_mount {
        volume      = "scratch"
        destination = "/scratch"
      }

      resources {
        cpu    = 100
        memory = 128
      }
    }
  }
}
