# A starting point for a long-running service, with every common block shown once and
# explained. Written for hclgpu's test suite; the values are ordinary choices, not advice.
#
# Check it with `nomad job validate` and plan it with `nomad job plan` before running it.

# The job is the unit Nomad schedules. Its name must be unique in the region.
job "sessions" {
  # Where the job may run. "*" matches every datacenter of the region.
  datacenters = ["*"]

  # "service" jobs run until stopped; see also "batch" and "system".
  type = "service"

  # How a new version replaces the old one, a few allocations at a time.
  update {
    # Replace one allocation at a time.
    max_parallel = 1

    # An allocation must stay healthy this long before it counts as healthy.
    min_healthy_time = "15s"

    # An allocation not healthy by then is marked unhealthy.
    healthy_deadline = "4m"

    # The deployment fails when no allocation became healthy for this long.
    progress_deadline = "12m"

    # Do not go back to the last stable version on failure.
    auto_revert = false

    # No canaries: replace in place.
    canary = 0
  }

  # How allocations move off a draining node.
  migrate {
    max_parallel     = 1
    health_check     = "checks"
    min_healthy_time = "15s"
    healthy_deadline = "4m"
  }

  # What the web UI shows on the job's page; the description is Markdown.
  ui {
    description = "A *memcached* session store"

    link {
      label = "memcached documentation"
      url   = "https://memcached.org/"
    }
  }

  # A group is a set of tasks placed together on one node.
  group "store" {
    # How many copies of the group to run.
    count = 2

    # The ports the group asks for; "to" maps into the container.
    network {
      port "memcache" {
        to = 11211
      }
    }

    # Registers the group in Nomad's own service catalogue.
    service {
      name     = "session-store"
      tags     = ["sessions", "cache"]
      port     = "memcache"
      provider = "nomad"
    }

    # What happens when a task fails on its node.
    restart {
      # Two restarts within the interval ...
      attempts = 2
      interval = "20m"

      # ... each after this delay ...
      delay = "20s"

      # ... and then the allocation fails (and may be rescheduled).
      mode = "fail"
    }

    # Scratch disk shared by the tasks of the group, in MB.
    ephemeral_disk {
      size = 200
    }

    # A task is one process (here a container).
    task "memcached" {
      driver = "docker"

      # Driver-specific settings.
      config {
        image          = "memcached:1.6"
        ports          = ["memcache"]
        auth_soft_fail = true
      }

      # Wait this long between deregistering the service and stopping the task.
      shutdown_delay = "5s"

      # The task's workload identity, as an environment variable and a file.
      identity {
        env  = true
        file = true
      }

      # What the task needs from its node.
      resources {
        cpu    = 250 # MHz
        memory = 128 # MiB
      }
    }
  }
}
