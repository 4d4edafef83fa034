# expect: HG278@4:10
job "web" {
  group "web" {
    task "server" {
      config {
        image = "nginx:1.27"
      }
    }
  }
}
