"""The typed job model (IR): pydantic models of the Nomad job specification."""
