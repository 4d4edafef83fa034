variable "instances" {
  type    = number
  default = 1
}

job "counter-vars" {
  group "counter" {
    count = var.instances

    network {
      port "http" {
        to = 8080
      }
    }

    service {
      provider = "consul"
      name     = "counter-vars-reader"
      port     = "http"
      task     = "count"

      # a script check runs inside the task
      check {
        type     = "script"
        interval = "20s"
        timeout  = "3s"
        command  = "/bin/sh"
        args     = ["/local/read.sh", "--quiet"]

        check_restart {
          limit = 4
        }
      }
    }

    task "count" {
      driver = "docker"

      config {
        image   = "curlimages/curl:8.8.0"
        command = "/bin/sh"
        args    = ["/local/write.sh"]
      }

      template {
        destination = "local/write.sh"
        data        = <<EOT
n=0
while true; do
  n=$((n + 1))
  curl --silent --show-error \
       --unix-socket "${NOMAD_SECRETS_DIR}/api.sock" \
       --header "Authorization: Bearer ${NOMAD_TOKEN}" \
       --data "{\"Items\": {\"n\": \"$n\"}}" \
       http://localhost/v1/var/nomad/jobs/counter-vars
  sleep 2
done
EOT
      }

      template {
        destination = "local/read.sh"
        data        = <<EOT
curl --silent --fail \
     --unix-socket "${NOMAD_SECRETS_DIR}/api.sock" \
     --header "Authorization: Bearer ${NOMAD_TOKEN}" \
     http://localhost/v1/var/nomad/jobs/counter-vars
EOT
      }

      identity {
        env = true
      }

      resources {
        cpu    = 80
        memory = 48
      }
    }
  }
}
