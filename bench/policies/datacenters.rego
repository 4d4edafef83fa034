package main

import rego.v1

deny contains "the job may not run in every datacenter (`*`)" if {
	datacenters := input.Job.Datacenters
	some dc in datacenters
	dc == "*"
}
