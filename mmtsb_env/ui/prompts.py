"""Prompt additions for UI scenarios (our wording), for the seats' system prompts.

>>> "render_ui_screen" in ASSISTANT_UI_NOTE and "ui_user_interact" in USER_UI_NOTE
True
"""

ASSISTANT_UI_NOTE = """UI mode: when the user has to choose, confirm or fill something in, build a screen for it.
- render_ui_screen(ui_json=[...]) draws a screen from UI messages (surfaceUpdate, dataModelUpdate, beginRendering) and returns its screenshot and interactive elements; ui_get_quick_start explains the format.
- show_ui_to_user() sends the last screen to the user; then message the user and wait.
- The user's answer arrives as a <ui_state_server> message with the action and its resolved data; act on exactly that choice.
- Offer every option the user needs as a button or field, and put ids, names and amounts in each button's action context.
- Images from the conversation go on screen with url "IMAGE_URL_1" and image_placeholders={"IMAGE_URL_1": <image id>}."""

USER_UI_NOTE = """When the assistant shows you a screen (a <ui_state_server> notice with a screenshot), answer through it:
call ui_user_interact(action_name, surface_id, component_id, field_values) on the element that matches your instructions, filling fields first through field_values. If the screen lacks what you need, say so in a message."""
