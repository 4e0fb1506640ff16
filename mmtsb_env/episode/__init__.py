"""episode package."""
