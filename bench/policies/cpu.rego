package main

import rego.v1

deny_cpu contains msg if {
	groups := input.Job.TaskGroups
	some group in groups
	some task in group.Tasks
	task.Resources.CPU < 100
	msg := sprintf("task %s asks for less than 100 MHz", [task.Name])
}
