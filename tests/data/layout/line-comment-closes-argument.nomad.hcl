job "j" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "x" # last
      }
    }
  }
}
