"""Phones the agent runs on: real devices over ADB and SimPhone, behind one Device interface."""
