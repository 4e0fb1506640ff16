"""The markers around the UI state text the user is shown (a module of its own: the scripted
user's :mod:`.choice` recognises UI turns without loading the UI state and element code)."""

UI_MARKER = "<ui_state_server>"
UI_MARKER_END = "</ui_state_server>"
