"""droidpilot studio: a local web app to watch agents live, operate phones by hand, record and review."""
