# Container images come from the registries the platform mirrors: NVIDIA's NGC, the team's
# own GitHub packages, AWS's Neuron images, NVIDIA's Docker Hub organisation, and Docker Hub's
# official images (a name without a slash, such as `redis:7.2-alpine`).
package main

import rego.v1

allowed_prefixes := ["nvcr.io/", "nvidia/", "ghcr.io/acme/", "public.ecr.aws/neuron/"]

violation contains {"msg": msg, "path": path} if {
	groups := input.Job.TaskGroups
	some g, group in groups
	some t, task in group.Tasks
	task.Driver in {"docker", "podman"}
	image := task.Config.image
	not allowed(image)
	msg := sprintf("task %s uses image %s, which is not from an approved registry", [task.Name, image])
	path := ["Job", "TaskGroups", g, "Tasks", t, "Config", "image"]
}

allowed(image) if not contains(image, "/")

allowed(image) if {
	some prefix in allowed_prefixes
	startswith(image, prefix)
}
