job "reporting" {
  datacenters = ["east"]

  group "reports" {
    task "render" {
      driver = "docker"

      config {
        image = "debian:stable-slim"
      }

      vault {
        policies = ["reports-read"]
      }
    }
  }
}
