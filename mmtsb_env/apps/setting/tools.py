"""Settings: the device's switches and location."""

from __future__ import annotations

from typing import Any

from ...tools import PermissionDenied, tool
from .tables import DEVICE, device


def _set(world: Any, column: str, on: bool) -> dict[str, Any]:
    d = device(world)
    if on and d["low_battery_mode"] and column != "low_battery_mode":
        raise PermissionDenied(f"cannot turn on {column.replace('_', ' ')} while low battery mode is on")
    changes = {column: on}
    if column == "low_battery_mode" and on:
        changes.update(cellular=False, wifi=False, location_service=False)
    world.update(DEVICE, 1, **changes)
    return {column: on}


@tool(app="setting", writes=True)
def set_low_battery_mode_status(world, on: bool) -> dict:
    """Turn low battery mode on or off. Turning it on also turns off cellular, wifi and location service.

    Args:
        on: true to turn low battery mode on, false to turn it off.
    """
    return _set(world, "low_battery_mode", on)


@tool(app="setting")
def get_low_battery_mode_status(world) -> bool:
    """Whether low battery mode is on."""
    return device(world)["low_battery_mode"]


@tool(app="setting", writes=True)
def set_location_service_status(world, on: bool) -> dict:
    """Turn location service on or off (cannot be turned on in low battery mode).

    Args:
        on: true to turn location service on, false to turn it off.
    """
    return _set(world, "location_service", on)


@tool(app="setting")
def get_location_service_status(world) -> bool:
    """Whether location service is on."""
    return device(world)["location_service"]


@tool(app="setting", writes=True)
def set_cellular_service_status(world, on: bool) -> dict:
    """Turn cellular service on or off (cannot be turned on in low battery mode).

    Args:
        on: true to turn cellular service on, false to turn it off.
    """
    return _set(world, "cellular", on)


@tool(app="setting")
def get_cellular_service_status(world) -> bool:
    """Whether cellular service is on."""
    return device(world)["cellular"]


@tool(app="setting", writes=True)
def set_wifi_status(world, on: bool) -> dict:
    """Turn wifi on or off (cannot be turned on in low battery mode).

    Args:
        on: true to turn wifi on, false to turn it off.
    """
    return _set(world, "wifi", on)


@tool(app="setting")
def get_wifi_status(world) -> bool:
    """Whether wifi is on."""
    return device(world)["wifi"]


@tool(app="setting", requires=("location",))
def get_current_location(world) -> dict:
    """The device's current latitude and longitude (needs location service on)."""
    d = device(world)
    return {"latitude": d["latitude"], "longitude": d["longitude"]}
