"""TRL integration: SFT on exported trajectories and GRPO on whole episodes.

===========================  ==============================================================
``ToolsVisionCollator``      TRL's vision collator that also renders each row's ``tools``
``sft_trainer``              an ``SFTTrainer`` on :func:`mmtsb_env.export.to_sft` rows
``tool_functions``           typed Python wrappers of the env's tools (for ``tools=``)
``EpisodeRollout``           plays full episodes with the trained model: ids, env mask, rewards
``EpisodeGRPOTrainer``       ``GRPOTrainer`` fed by ``EpisodeRollout`` (images of later turns too)
``VLLMServerGeneration``     batched turn sampling from a vLLM server and its weight reloads
``episode_prompts``          a GRPO prompt dataset from a suite (one row per scenario)
``environment_factory``      a class for ``GRPOTrainer(environment_factory=...)``: tools as methods
``environment_prompts``      its prompt dataset; ``final_reply_reward`` its reward (verdict included)
===========================  ==============================================================

See ``docs/training.md``.
"""

from .environment import environment_factory, environment_prompts, final_reply_reward
from .grpo import EpisodeGRPOTrainer, EpisodeRollout, env_reward, episode_prompts
from .sft import ToolsVisionCollator, sft_trainer
from .tools import tool_functions
from ...llm.vllm_server import VLLMServerGeneration

__all__ = ["EpisodeGRPOTrainer", "EpisodeRollout", "ToolsVisionCollator", "env_reward", "environment_factory",
           "environment_prompts", "episode_prompts", "final_reply_reward", "sft_trainer", "tool_functions",
           "VLLMServerGeneration"]
