# expect: HG008@2:1
/* disabled for now
job "x" {}
