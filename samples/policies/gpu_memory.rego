# Every task that asks for a GPU should set `memory_max`: a GPU job that outgrows its
# memory reservation is killed mid-epoch, one with a ceiling above it can borrow.
package main

import rego.v1

warn contains {"msg": msg, "path": path} if {
	groups := input.Job.TaskGroups
	some g, group in groups
	some t, task in group.Tasks
	some device in task.Resources.Devices
	startswith(device.Name, "nvidia/gpu")
	not has_memory_max(task)
	msg := sprintf("GPU task %s should set `memory_max` in its resources", [task.Name])
	path := ["Job", "TaskGroups", g, "Tasks", t, "Resources"]
}

# The API JSON has `"MemoryMaxMB": null` when the file does not set it, and `not null` is
# false in Rego (null is a value): test the type, rather than for presence.
has_memory_max(task) if is_number(task.Resources.MemoryMaxMB)
