# Run from the repository root: nomad job run jobs/web.nomad.hcl
job "web" {
  group "web" {
    task "server" {
      driver = "docker"

      config {
        image = "nginx:1.27"
      }

      template {
        data        = file("jobs/templates/web.tpl")
        destination = "local/index.html"
      }
    }
  }
}
