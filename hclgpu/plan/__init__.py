"""Placement dry-run: node inventories and Nomad's device scheduling semantics (`hclgpu plan`)."""
