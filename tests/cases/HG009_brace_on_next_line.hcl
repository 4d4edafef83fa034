# expect: HG009@2:12
job "train"
{
  datacenters = ["dc1"]
}
