# expect: HG010@2:12
name = "café"
