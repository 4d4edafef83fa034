# expect: HG104@6:7
job "gpu" {
  group "g" {
    task "t" {
      resources { cpu = 500 }
      resources { memory = 256 }
    }
  }
}
