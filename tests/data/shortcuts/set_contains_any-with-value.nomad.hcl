job "j" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "x"
      }
      constraint {
        attribute = "${meta.a}"
        value = "b"
        set_contains_any = "a,b"
      }
    }
  }
}
