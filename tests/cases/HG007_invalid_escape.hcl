# expect: HG007@2:14
command = "C:\bin"
