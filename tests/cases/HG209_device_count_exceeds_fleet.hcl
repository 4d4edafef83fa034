# expect: HG209@12:19, HG209@17:19
# settings: {nodes = "../../samples/nodes/cluster.yaml"}
job "train" {
  datacenters = ["us-east-1a"]
  group "g" {
    task "t" {
      driver = "docker"
      config { image = "x" }
      resources {
        # the fleet's largest GPU nodes have 8: one request takes one node's group
        device "nvidia/gpu/NVIDIA H100 80GB HBM3" {
          count = 16
        }
        device "nvidia/gpu" { count = 8 }
        # no node has a B200
        device "nvidia/gpu/NVIDIA B200" {
          count = 1
        }
      }
    }
  }
}
