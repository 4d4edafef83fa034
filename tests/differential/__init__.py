"""The differential test of hclgpu against Nomad's own parser and validator."""
