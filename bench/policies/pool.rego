package main

import rego.v1

deny contains msg if {
	groups := input.Job.TaskGroups
	some group in groups
	some task in group.Tasks
	some device in task.Resources.Devices
	some constraint in device.Constraints
	contains(constraint.RTarget, "A100")
	input.Job.NodePool != "gpu"
	msg := sprintf("task %s wants A100 GPUs: the job must run in node pool \"gpu\"", [task.Name])
}
