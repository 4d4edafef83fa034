# expect: HG002@3:11
job "x" {
  image = "nvcr.io/nvidia/tensorrtserver:19.02-py3
}
