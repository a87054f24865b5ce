"""Task definitions as data (importable as ``mobile_gym.tasks``): the LlamaTouch task
catalogue (`catalogue.py`, `llamatouch.yaml`); simulator tasks arrive with the env."""
