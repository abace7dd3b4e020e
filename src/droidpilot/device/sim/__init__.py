"""SimPhone: a deterministic simulated Android phone whose apps are data."""
