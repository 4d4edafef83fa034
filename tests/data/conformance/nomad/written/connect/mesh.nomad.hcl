# A two-service mesh: "storefront" reaches "catalog" only through its Envoy sidecar.
# Written for hclgpu's test suite (comments in all three styles on purpose).

job "inventory" {
  // what the web UI shows next to the job
  ui {
    description = "Storefront and catalog behind **Consul** service mesh"

    link {
      label = "Service mesh overview"
      url   = "https://developer.hashicorp.com/consul/docs/connect"
    }

    link {
      label = "Nomad job specification"
      url   = "https://developer.hashicorp.com/nomad/docs/job-specification"
    }
  }

  group "catalog" {
    /* bridge networking gives the group its own network namespace,
       which the sidecar proxy needs */
    network {
      mode = "bridge"
    }

    service {
      name = "catalog-api"
      port = "7070" # the port the application listens on inside the namespace

      connect {
        sidecar_service {}
      }
    }

    task "api" {
      driver = "docker"

      config {
        image          = "example.org/catalog-api:1.4"
        auth_soft_fail = true
      }

      shutdown_delay = "5s"

      resources {
        cpu    = 300 # MHz
        memory = 192 # MiB
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
            // the catalog appears on localhost:9191 inside this group
            upstreams {
              destination_name = "catalog-api"
              local_bind_port  = 9191
            }
          }
        }
      }
    }

    task "web" {
      driver = "docker"

      env {
        CATALOG_URL = "http://${NOMAD_UPSTREAM_ADDR_catalog_api}"
      }

      config {
        image          = "example.org/storefront:2.0"
        auth_soft_fail = true
      }

      shutdown_delay = "5s"
    }
  }
}
