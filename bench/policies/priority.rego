package main

import rego.v1

deny contains msg if {
	input.Job.Priority > 80
	not input.Job.Meta.critical
	msg := sprintf("priority %d is reserved for critical jobs", [input.Job.Priority])
}
