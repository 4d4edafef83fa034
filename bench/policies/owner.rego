package main

import rego.v1

warn contains "the job has no `team` in its meta" if {
	not input.Job.Meta.team
}
