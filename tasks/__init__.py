"""Task definitions as data (importable as ``mobile_gym.tasks``); they arrive with the env."""
