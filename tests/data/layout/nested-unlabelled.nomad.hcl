job "j" {
  group "g" {
    task "t" {
      driver = "docker"
      config { image = "x" }
      resources { network { mbits = 10 } }
    }
  }
}
