# Written for hclgpu's tests: a dispatchable batch job. Each dispatch carries a payload
# (the video to encode) and metadata, one of it required.
job "transcode" {
  type        = "batch"
  datacenters = ["media"]

  parameterized {
    payload       = "required"
    meta_required = ["profile"]
    meta_optional = ["bitrate", "notify_url"]
  }

  meta {
    bitrate = "4M"
  }

  constraint {
    attribute = "${attr.driver.docker.version}"
    operator  = "version"
    value     = ">= 24.0"
  }

  group "encode" {
    task "ffmpeg" {
      driver = "docker"

      dispatch_payload {
        file = "request.json"
      }

      config {
        image   = "jrottenberg/ffmpeg:6.1-ubuntu"
        command = "/local/encode.sh"
      }

      template {
        destination = "local/encode.sh"
        perms       = "755"
        data        = <<-SCRIPT
          #!/bin/sh
          set -eu
          src=$(jq -r .source "${NOMAD_TASK_DIR}/request.json")
          ffmpeg -i "$src" -b:v "${NOMAD_META_bitrate}" -preset "${NOMAD_META_profile}" /alloc/data/out.mp4
        SCRIPT
      }

      resources {
        cpu        = 4000
        memory     = 2048
        memory_max = 4096
      }
    }
  }
}
