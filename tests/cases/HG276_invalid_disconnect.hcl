# expect: HG276@5:30
job "web" {
  group "web" {
    disconnect {
      lost_after           = "1h"
      stop_on_client_after = "30m"
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
