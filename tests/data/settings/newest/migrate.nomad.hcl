job "migrate" {
  type = "batch"

  group "schema" {
    task "flyway" {
      driver = "docker"

      lifecycle {
        hook = "prestart"
      }

      config {
        image = "flyway/flyway:10"
      }
    }
  }
}
