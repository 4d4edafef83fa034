# Written for hclgpu's tests, refused by Nomad on purpose: the task's resources block is
# misspelled "resouces", and Nomad's parser does not know that block type.
job "typo" {
  datacenters = ["dc1"]

  group "web" {
    network {
      port "http" {
        to = 80
      }
    }

    task "httpd" {
      driver = "docker"

      config {
        image = "httpd:2.4"
        ports = ["http"]
      }

      resouces {
        cpu    = 200
        memory = 128
      }
    }
  }
}
