# expect: HG286@13:23
job "web" {
  group "web" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
      identity {
        name        = "vault"
        aud         = ["vault.io"]
        ttl         = "1h"
        change_mode = "signal"
      }
    }
  }
}
