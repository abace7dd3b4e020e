"""Mobile-Agent-E's long-term memory: tips and shortcuts in a folder of YAML files, one version per update."""
