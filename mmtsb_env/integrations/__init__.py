"""Adapters to training libraries (optional extras; each submodule imports its library lazily).

- :mod:`mmtsb_env.integrations.trl`: TRL's ``SFTTrainer`` (tools in the prompt for vision models,
  assistant-only loss) and ``GRPOTrainer`` (whole multi-turn episodes as rollouts);
  ``pip install mmtsb-env[trl]``.
- :mod:`mmtsb_env.integrations.skyrl`: a SkyRL-gym text environment; ``pip install mmtsb-env[skyrl]``.
- :mod:`mmtsb_env.integrations.verifiers_env`: a verifiers ``MultiTurnEnv`` (``load_environment``);
  ``pip install mmtsb-env[verifiers]``.
"""
