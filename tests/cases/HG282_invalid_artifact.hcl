# expect: HG282@11:23
job "web" {
  group "web" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
      artifact {
        source      = "https://example.com/site.tgz"
        destination = "../../../etc"
      }
    }
  }
}
