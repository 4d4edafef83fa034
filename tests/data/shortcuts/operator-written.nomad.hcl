job "j" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "x"
      }
      constraint {
        attribute = "${meta.a}"
        operator = "set_contains_any"
        value = "a,b"
      }
    }
  }
}
