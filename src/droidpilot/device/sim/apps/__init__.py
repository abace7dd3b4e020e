"""SimPhone's apps as data: one YAML file per app (see ``droidpilot.device.sim.appmodel.model``)."""
