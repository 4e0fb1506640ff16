"""ui package."""
