"""Tests of the model backends, agents, LLM user, tiny models, vLLM and the RL example."""
