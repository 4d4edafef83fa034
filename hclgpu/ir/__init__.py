"""The typed job model (IR): mirrors of the Nomad job specification's API structs."""
