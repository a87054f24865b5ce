"""Agents (importable as ``mobile_gym.agents``); they arrive with the env."""
