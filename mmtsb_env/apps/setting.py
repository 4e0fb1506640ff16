"""Device settings: connectivity, location and low-battery mode, which gate other tools.

Other apps declare what they need with ``@tool(requires=("network",))`` and friends; the
checks below turn the current settings into a clear refusal.
"""

from __future__ import annotations

from typing import Any

from ..tools import PermissionDenied, requirement, tool
from ..world import define_table
from ..world.base import BaseBuilder, populator

DEVICE = "setting.device"

define_table(
    DEVICE,
    columns={
        "id": 1,
        "low_battery_mode": False,
        "location_service": True,
        "cellular": True,
        "wifi": True,
        "latitude": 37.3349,
        "longitude": -122.009,
    },
)


def device(world: Any) -> dict[str, Any]:
    return world.get(DEVICE, 1)


@populator("setting", order=0)
def _populate(b: BaseBuilder) -> None:
    b.add(DEVICE, {"id": 1})


@requirement("network")
def _needs_network(world: Any) -> str | None:
    d = device(world)
    if not (d["wifi"] or d["cellular"]):
        return "no network connection: wifi and cellular are both off (turn one on with set_wifi_status or set_cellular_service_status)"
    return None


@requirement("cellular")
def _needs_cellular(world: Any) -> str | None:
    if not device(world)["cellular"]:
        return "cellular service is off; turn it on with set_cellular_service_status(on=true)"
    return None


@requirement("location")
def _needs_location(world: Any) -> str | None:
    if not device(world)["location_service"]:
        return "location service is off; turn it on with set_location_service_status(on=true)"
    return None


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
