# Written for hclgpu's tests: two services on the Consul service mesh, one reaching the
# other through a transparent proxy, the other through an explicit upstream.
job "mesh-shop" {
  datacenters = ["dc1"]

  group "catalog" {
    count = 2

    network {
      mode = "bridge"
    }

    service {
      name = "catalog"
      port = "7070"
      tags = ["v2"]

      check {
        type     = "http"
        path     = "/healthz"
        expose   = true
        interval = "5s"
        timeout  = "2s"

        check_restart {
          limit           = 3
          grace           = "20s"
          ignore_warnings = true
        }
      }

      connect {
        sidecar_service {
          proxy {
            transparent_proxy {
              exclude_outbound_ports = [8500]
              exclude_inbound_ports  = ["9102"]
              exclude_uids           = ["1001"]
              no_dns                 = false
            }
          }
        }

        sidecar_task {
          resources {
            cpu    = 75
            memory = 48
          }
        }
      }
    }

    task "catalog" {
      driver = "docker"

      config {
        image = "ghcr.io/example/catalog:1.4.0"
      }

      env {
        LISTEN_ADDR = "127.0.0.1:7070"
      }

      resources {
        cpu    = 200
        memory = 128
      }
    }
  }

  group "storefront" {
    network {
      mode = "bridge"

      port "http" {
        static = 8088
        to     = 3000
      }
    }

    service {
      name = "storefront"
      port = "http"

      connect {
        sidecar_service {
          tags = ["mesh"]

          proxy {
            upstreams {
              destination_name = "catalog"
              local_bind_port  = 7070
            }

            upstreams {
              destination_name   = "payments"
              destination_peer   = "billing-cluster"
              local_bind_port    = 7080
              datacenter         = "dc2"

              mesh_gateway {
                mode = "local"
              }
            }

            config {
              protocol = "http"
            }
          }
        }
      }
    }

    task "storefront" {
      driver = "docker"

      config {
        image = "ghcr.io/example/storefront:3.0.2"
      }

      env {
        CATALOG_URL  = "http://${NOMAD_UPSTREAM_ADDR_catalog}"
        PAYMENTS_URL = "http://${NOMAD_UPSTREAM_ADDR_payments}"
      }

      resources {
        cpu    = 300
        memory = 256
      }
    }
  }
}
