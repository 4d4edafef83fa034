job "inventory" {
  group "catalog" {
    network {
      mode = "bridge"
    }

    service {
      name = "catalog-api"
      port = "7070"

      connect {
        sidecar_service {}
      }
    }

    task "api" {
      driver         = "docker"
      shutdown_delay = "5s"

      config {
        image          = "example.org/catalog-api:1.4"
        auth_soft_fail = true
      }
    }
  }

  group "storefront" {
    network {
      mode = "bridge"

      port "http" {
        static = 8443
        to     = 8443
      }
    }

    service {
      name = "storefront-web"
      port = "8443"

      connect {
        sidecar_service {
          proxy {
            upstreams {
              destination_name = "catalog-api"
              local_bind_port  = 9191
            }
          }
        }
      }
    }

    task "web" {
      driver         = "docker"
      shutdown_delay = "5s"

      env {
        CATALOG_URL = "http://${NOMAD_UPSTREAM_ADDR_catalog_api}"
      }

      config {
        image          = "example.org/storefront:2.0"
        auth_soft_fail = true
      }
    }
  }
}
