"""Brains: what decides the next action (a model endpoint, an offline heuristic, a replay)."""
