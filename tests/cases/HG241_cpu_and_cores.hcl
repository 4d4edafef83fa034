# expect: HG241@10:9
job "train" {
  group "train" {
    task "trainer" {
      driver = "docker"
      config {
        image = "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime"
      }
      resources {
        cpu    = 2000
        cores  = 2
        memory = 4096
      }
    }
  }
}
