package main

import rego.v1

warn_name contains msg if {
	not regex.match(`^[a-z][a-z0-9-]*$`, input.Job.ID)
	msg := sprintf("job ID %s is not lower-case kebab", [input.Job.ID])
}
