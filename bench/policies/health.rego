package main

import rego.v1

warn contains msg if {
	input.Job.Type == "service"
	groups := input.Job.TaskGroups
	some group in groups
	count([d | some task in group.Tasks; some d in task.Resources.Devices]) > 0
	checks := [c | some s in group.Services; some c in s.Checks]
	task_checks := [c | some task in group.Tasks; some s in task.Services; some c in s.Checks]
	count(checks) + count(task_checks) == 0
	msg := sprintf("GPU service group %s has no health check", [group.Name])
}
