# Written for hclgpu's tests, refused by Nomad on purpose: a block written on one line may hold
# one argument only, never a nested block (here the network's port).
job "one-liner" {
  datacenters = ["dc1"]

  group "api" {
    network { port "http" { to = 8080 } }

    task "api" {
      driver = "docker"

      config {
        image = "ghcr.io/example/api:1.0"
        ports = ["http"]
      }

      resources { cpu = 100 }
    }
  }
}
