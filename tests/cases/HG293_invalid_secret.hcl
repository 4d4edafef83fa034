# expect: HG293@9:14
job "web" {
  group "api" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
      secret "db-password" {
        provider = "nomad"
        path     = "secret/db"
      }
    }
  }
}
