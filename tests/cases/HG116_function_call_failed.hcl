# expect: HG116@4:21
job "gpu" {
  meta {
    port = parseint("80a", 10)
  }
}
