"""Gymnasium wrappers (importable as ``mobile_gym.wrappers``); they arrive with the env."""
