variable "instances" {
  type    = number
  default = 2
}

job "queue-docker" {
  group "queue" {
    count = var.instances

    network {
      port "amqp" {
        to = 5672
      }
    }

    service {
      provider = "consul"
      name     = "queue-docker"
      port     = "amqp"

      check {
        name     = "queue-docker-tcp"
        type     = "tcp"
        interval = "15s"
        timeout  = "2s"
      }
    }

    task "broker" {
      driver = "docker"

      config {
        image = "rabbitmq:3.13"
        ports = ["amqp"]

        labels {
          component = "queue-docker"
        }
      }

      resources {
        cpu    = 200
        memory = 256
      }
    }
  }
}
