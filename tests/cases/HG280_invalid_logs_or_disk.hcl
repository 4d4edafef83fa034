# expect: HG280@5:14
job "web" {
  group "web" {
    ephemeral_disk {
      size = 5
    }
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
      logs {
        max_files     = 1
        max_file_size = 1
      }
    }
  }
}
