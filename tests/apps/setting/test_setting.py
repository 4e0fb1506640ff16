"""setting: the device switches (setting.device) and the requirements they gate."""

import pytest

from mmtsb_env.apps.setting.tables import DEVICE

SWITCHES = {  # tool suffix -> column of setting.device
    "low_battery_mode_status": "low_battery_mode",
    "location_service_status": "location_service",
    "cellular_service_status": "cellular",
    "wifi_status": "wifi",
}


def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog("setting", count=9)
    assert {name for name, t in ours.items() if t.writes} == {f"set_{s}" for s in SWITCHES}
    assert ours["get_current_location"].requires == ("location",)


@pytest.mark.parametrize("suffix,column", [(s, c) for s, c in SWITCHES.items() if c != "low_battery_mode"])
def test_set_and_get_each_radio(call, world, suffix, column):
    start = world.get(DEVICE, 1)[column]
    assert call(f"get_{suffix}") is start
    assert call(f"set_{suffix}", on=not start) == {column: not start}
    assert world.get(DEVICE, 1)[column] is (not start) and call(f"get_{suffix}") is (not start)
    assert call(f"set_{suffix}", on=start) == {column: start}
    assert world.get(DEVICE, 1)[column] is start and DEVICE not in world.diff()


def test_low_battery_mode_turns_radios_off_and_blocks_them(call, world):
    assert call("get_low_battery_mode_status") is False
    assert call("set_low_battery_mode_status", on=True) == {"low_battery_mode": True}
    assert world.get(DEVICE, 1)["low_battery_mode"] is True and call("get_low_battery_mode_status") is True
    assert not any(world.get(DEVICE, 1)[c] for c in ("wifi", "cellular", "location_service"))
    for suffix, column in SWITCHES.items():
        if column != "low_battery_mode":
            text = call.fail(f"set_{suffix}", on=True)
            assert f"cannot turn on {column.replace('_', ' ')} while low battery mode is on" in text
            assert call(f"set_{suffix}", on=False) == {column: False}
    assert call("set_low_battery_mode_status", on=False) == {"low_battery_mode": False}
    assert world.get(DEVICE, 1)["cellular"] is False  # leaving low battery mode does not switch radios back on
    assert call("set_wifi_status", on=True) == {"wifi": True}


def test_current_location_needs_location_service(call, world):
    device = world.get(DEVICE, 1)
    assert call("get_current_location") == {"latitude": device["latitude"], "longitude": device["longitude"]}
    call("set_location_service_status", on=False)
    assert "location service is off" in call.fail("get_current_location")


def test_wrong_argument_type(call):
    assert "'on'" in call.fail("set_wifi_status", on="yes")
    assert "missing required parameter(s): on" in call.fail("set_wifi_status")
