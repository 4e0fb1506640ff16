"""Device settings: connectivity, location and low-battery mode, which gate other tools.

Other apps declare what they need with ``@tool(requires=("network",))`` and friends; the
checks below turn the current settings into a clear refusal.
"""

from __future__ import annotations

from typing import Any

from ...tools import requirement
from ...world import define_table
from ...world.populators import BaseBuilder, populator

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


