# expect: HG281@12:23
job "web" {
  group "web" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
      template {
        data        = "listen 8080;"
        destination = "local/nginx.conf"
        change_mode = "signal"
        env         = true
      }
    }
  }
}
