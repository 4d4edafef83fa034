# expect: HG101@6:7
job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      memroy = 256
    }
  }
}
