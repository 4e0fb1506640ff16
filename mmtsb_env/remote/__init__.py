"""Episodes over HTTP: ``mmtsb serve`` (:mod:`.server`) and an asyncio client (:mod:`.client`)."""

from .client import RemoteEnv, RemoteEnvError, StepResult, health
from .server import EnvServer, EpisodeRegistry, serve_in_thread

__all__ = ["EnvServer", "EpisodeRegistry", "RemoteEnv", "RemoteEnvError", "StepResult", "health", "serve_in_thread"]
