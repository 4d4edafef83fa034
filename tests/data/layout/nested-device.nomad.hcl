job "j" {
  group "g" {
    task "t" {
      driver = "docker"
      config { image = "x" }
      resources { device "nvidia/gpu" { count = 1 } }
    }
  }
}
