# expect: HG257@5:13
job "agent" {
  type = "system"
  group "collector" {
    count = 3
    task "collector" {
      driver = "docker"
      config {
        image = "otel/opentelemetry-collector:0.100.0"
      }
    }
  }
}
