# expect: HG001@3:9
job "x" {
  count 2
}
