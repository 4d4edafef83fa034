package main

import rego.v1

allowed_registries := ["registry.example.com/", "nvcr.io/"]

violation contains {"msg": msg, "path": ["Job", "TaskGroups", g, "Tasks", t, "Config", "image"]} if {
	groups := input.Job.TaskGroups
	some g, group in groups
	some t, task in group.Tasks
	task.Driver in {"docker", "podman"}
	image := task.Config.image
	not from_allowed_registry(image)
	msg := sprintf("task %s uses image %s from outside the allowed registries", [task.Name, image])
}

from_allowed_registry(image) if {
	some prefix in allowed_registries
	startswith(image, prefix)
}
