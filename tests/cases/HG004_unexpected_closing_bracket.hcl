# expect: HG004@5:1
task "rtserver" {
  driver = "docker"
}
}
