"""Back ends: one module per target, each lowering the IR job to that target's documents."""
