"""Settings: the device's switches (wifi, cellular, location service, low battery mode) and location.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, tools  # noqa: F401
