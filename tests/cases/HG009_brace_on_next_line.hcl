# expect: HG009@3:1
job "train"
{
  datacenters = ["dc1"]
}
