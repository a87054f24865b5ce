"""Readers and writers of the on-disk formats (LlamaTouch dataset, AgentEnv traces)."""
