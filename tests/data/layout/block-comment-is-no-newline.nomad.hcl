job "j" {
  group "g" {
    task "t" {
      driver = "docker"
      config { /* the
 image */ image = "x" }
    }
  }
}
