"""Evaluation of HCL expressions the way Nomad's jobspec2 evaluates them."""
