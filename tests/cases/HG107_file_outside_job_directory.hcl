# expect: HG107@4:18
job "gpu" {
  meta {
    hosts = file("/etc/hosts")
  }
}
