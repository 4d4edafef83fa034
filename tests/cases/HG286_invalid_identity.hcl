# expect: HG286@12:23
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
        change_mode = "signal"
      }
    }
  }
}
