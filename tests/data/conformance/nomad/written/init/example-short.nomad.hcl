job "sessions" {
  group "store" {
    network {
      port "memcache" {
        to = 11211
      }
    }

    task "memcached" {
      driver = "docker"

      config {
        image          = "memcached:1.6"
        ports          = ["memcache"]
        auth_soft_fail = true
      }

      identity {
        env  = true
        file = true
      }

      resources {
        cpu    = 250
        memory = 128
      }
    }
  }
}
