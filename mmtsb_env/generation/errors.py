"""The generator's composing error, at the bottom of the package so every layer can raise it."""


class GenerationError(RuntimeError):
    """The drawn combination could not be realised (the caller redraws with another seed)."""
