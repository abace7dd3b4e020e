"""The benchmark suites shipped with droidpilot: one folder of task files (YAML) per suite."""
