"""Device settings (wifi, cellular, location service, low battery mode, location): one tool everywhere."""

from __future__ import annotations

from ...tools.consolidate import consolidate

_SETTINGS = ("wifi", "cellular_service", "location_service", "low_battery_mode")

_routes = {}
for _s in _SETTINGS:
    _routes[("get", _s)] = f"get_{_s}_status"
    _routes[("set", _s)] = f"set_{_s}_status"
_routes[("get", "current_location")] = "get_current_location"

consolidate(
    "device_settings", app="setting", toolboxes=("medium", "compact", "mini"), selectors=("action", "setting"),
    selector_docs={"action": "get (read) or set (turn on/off)",
                   "setting": "wifi, cellular_service, location_service, low_battery_mode, or current_location (get only)"},
    summary="Read or switch the phone's settings (wifi, cellular service, location service, low battery mode) "
            "or read its current location. Setting one needs on=true/false.",
    routes=_routes,
)
