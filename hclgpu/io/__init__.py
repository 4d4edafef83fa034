"""What hclgpu reads and writes on a user's behalf, within its limits: named files
(:mod:`~hclgpu.io.files`), the job files below a directory (:mod:`~hclgpu.io.walk`), the
inputs of a command (:mod:`~hclgpu.io.inputs`), JSON and YAML side files
(:mod:`~hclgpu.io.documents`), ``--out`` written as one transaction
(:mod:`~hclgpu.io.output`) and the crash-safe steps both writers take
(:mod:`~hclgpu.io.durable`). Importing this package loads nothing."""
