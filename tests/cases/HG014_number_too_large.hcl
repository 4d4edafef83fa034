# expect: HG014@4:16
job "build" {
  meta = {
    build_id = 1e999999
  }
}
