job "j" {
  group "g" {
    task "t" {
      driver = "docker"
      config { image = "x" }
      resources { /* a
 */ device "nvidia/gpu" {
 count = 1
 } }
    }
  }
}
