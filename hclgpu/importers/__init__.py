"""Importers: other job formats turned into HCL job files (``hclgpu import``).

They sit beside the back ends (layer 5): they read the IR models and write HCL text,
the inverse of the decoder, so a job kept as API JSON can move back to a job file.
"""
