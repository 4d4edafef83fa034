# expect: HG003@6:1
job "x" {
  data = <<EOH
{{ key "config" }}
EOH-typo
