job "scenario" {
  datacenters = ["dc1", "dc2"]

  group "g" {
    count = 1

    network {
      port "http" {
        static = 8080
      }
    }

    task "t" {
      driver = "docker"

      config {
        image = "example/app:1"
      }

      resources {
        
      }
    }
  }
}
