"""Device settings: read the connectivity and location state, switch location service."""

from ..rows import Read, Write, table

ROWS = table(
    "setting",
    Read("get_location_service_status", {}, "",
         ("Is location service on right now?", "is my location switched on?"), "Location service on: {v}."),
    Read("get_cellular_service_status", {}, "",
         ("Is mobile data on at the moment?", "cellular on or off right now?"), "Cellular service on: {v}."),
    Read("get_current_location", {}, "latitude",
         ("What latitude does my phone report right now?", "what's my current latitude?"), "Your phone reports latitude {v}."),
    Read("get_low_battery_mode_status", {}, "",
         ("Is low battery mode on?", "am i in low battery mode?"), "Low battery mode on: {v}."),
    Write("set_location_service_status", {"on": False},
          ("Turn location service off, please.", "switch off location for me"),
          "Location service is off now.", ("update", "setting.device")),
)
