package main

import rego.v1

gpu_tasks contains [g, t] if {
	groups := input.Job.TaskGroups
	some g, group in groups
	some t, task in group.Tasks
	some device in task.Resources.Devices
	startswith(device.Name, "nvidia/gpu")
}

violation contains {"msg": msg, "path": ["Job", "TaskGroups", g, "Tasks", t, "Resources"]} if {
	some [g, t] in gpu_tasks
	task := input.Job.TaskGroups[g].Tasks[t]
	not is_number(task.Resources.MemoryMaxMB)
	msg := sprintf("GPU task %s must set memory_max", [task.Name])
}
