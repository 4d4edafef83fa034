package main

import rego.v1

violation contains {"msg": msg, "path": ["TaskGroups", g, "Tasks", t, "Config", "image"]} if {
	groups := input.Job.TaskGroups
	some g, group in groups
	some t, task in group.Tasks
	not startswith(task.Config.image, "registry.example.com/")
	msg := sprintf("image %s is not ours", [task.Config.image])
}

warn contains "the job has no owner" if not input.Job.Meta.owner
