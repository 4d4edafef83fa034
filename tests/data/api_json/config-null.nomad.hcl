job "j" {
  group "g" {
    scaling {
      max = 3
      policy {
        cooldown = null
        evaluation_interval = "5s"
      }
    }
    task "t" {
      driver = "docker"
      config {
        image   = "x"
        network = null
        labels  = { team = null }
        args    = [null, "a"]
      }
    }
  }
}
