"""One episode as data flows: action parsing (``actions``), the message log (``log``), prompts,
scenario images (``images``), the engine (``engine``: turns, tool calls, rewards, the verdict) and
ending an episode from outside its turn-taking (``ending``: a step cap, a wrapper, a trainer)."""
