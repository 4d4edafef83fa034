hello from the repository root
