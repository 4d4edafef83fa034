# Written for hclgpu's tests: an interactive notebook server on one named GPU model with a host
# volume. NOTE: the volume_mount names "notebooks" while the group's volume is "notebook", a
# typo that Nomad's parser accepts and its validator refuses.
job "jupyter-gpu" {
  datacenters = ["lab"]

  group "notebook" {
    volume "notebook" {
      type      = "host"
      source    = "jupyter-home"
      read_only = false
    }

    network {
      port "lab" {
        to = 8888
      }
    }

    service {
      name     = "jupyter"
      provider = "nomad"
      port     = "lab"
    }

    task "lab" {
      driver = "docker"

      config {
        image = "quay.io/jupyter/pytorch-notebook:cuda12-latest"
        ports = ["lab"]
        args  = ["start-notebook.py", "--NotebookApp.token=${NOTEBOOK_TOKEN}"]
      }

      volume_mount {
        volume      = "notebooks"
        destination = "/home/jovyan/work"
      }

      template {
        destination = "secrets/token.env"
        env         = true
        data        = "NOTEBOOK_TOKEN={{ with nomadVar \"nomad/jobs/jupyter-gpu\" }}{{ .token }}{{ end }}"
      }

      resources {
        cpu    = 2000
        memory = 12288

        device "nvidia/gpu/Tesla T4" {
          count = 1
        }
      }
    }
  }
}
