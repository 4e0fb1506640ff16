"""Gymnasium wrappers for mmtsb_env (installed as ``mmtsb_env.wrappers``), one per module.

=======================  ======================================================================
``ChatObservation``      observation = OpenAI-format chat messages (data URLs or PIL images)
``ResizeImages``         change the image tensor's size and number of slots
``RewardWeights``        recombine the reward from its components with new weights
``StepLimit``            truncate after N agent steps, with a terminal verdict
``VerdictOnTruncation``  a verdict when a TimeLimit below it truncates (gym.make adds it)
``TokenEnv``             the env in a processor's token ids: exact loss mask, no re-encoding
``TokenEnvBatch``        reset/step over many TokenEnvs
``TokenTranscript``      one episode's token sequence built from its messages (mmtsb_env.llm.transcript)
``SeatSelection``        play either seat of the AEC env through the Gymnasium API
``UserSeatEnv``          train the user seat; a given policy plays the assistant
``EpisodeStatistics``    return, length, F1 and pass in ``info["episode"]``
``TrajectoryRecorder``   record every episode (images included), optionally to Parquet
=======================  ======================================================================
"""

from .chat_observation import ChatMessages, ChatObservation
from .episode_statistics import EpisodeStatistics
from .resize_images import ResizeImages
from .reward_weights import RewardWeights
from .seat_selection import SeatSelection, UserSeatEnv
from .step_limit import StepLimit, VerdictOnTruncation
from .token_env import TokenEnv, TokenEnvBatch, TokenTrace, TokenTranscript
from .trajectory_recorder import TrajectoryRecorder

__all__ = [
    "ChatMessages", "ChatObservation", "EpisodeStatistics", "ResizeImages", "RewardWeights", "SeatSelection",
    "StepLimit", "TokenEnv", "TokenEnvBatch", "TokenTrace", "TokenTranscript", "TrajectoryRecorder", "UserSeatEnv", "VerdictOnTruncation",
]
