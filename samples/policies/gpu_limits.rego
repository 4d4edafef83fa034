# No group may ask for more than 8 GPUs (one node's worth): larger jobs go through the
# platform team's multi-node template.
package main

import rego.v1

max_gpus_per_group := 8

deny contains msg if {
	groups := input.Job.TaskGroups
	some group in groups
	gpus := sum([(device.Count * group.Count) |
		some task in group.Tasks
		some device in task.Resources.Devices
		startswith(device.Name, "nvidia/gpu")
	])
	gpus > max_gpus_per_group
	msg := sprintf("group %s asks for %d GPUs in all (count x devices), more than %d", [group.Name, gpus, max_gpus_per_group])
}
