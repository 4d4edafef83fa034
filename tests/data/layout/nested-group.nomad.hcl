job "j" {
  group "g" { task "t" { driver = "docker" } }
}
