job "j" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "x"
      }
      constraint {
        attribute = "${meta.a}"
        is_not_set = "a,b"
      }
    }
  }
}
