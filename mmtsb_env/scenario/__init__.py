"""scenario package."""
