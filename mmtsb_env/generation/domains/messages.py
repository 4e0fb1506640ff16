"""Messages: read text and voice messages; send and delete them."""

from ..rows import OWNER, Read, Rows, Write, table

PEOPLE = Rows("phone.contacts", {"user_id": OWNER}, unique="phone_number")
TEXTED = Rows("phone.contacts", lambda r, wi: r.get("user_id") == wi.owner_id and r.get("phone_number") in _texted(wi),
              unique="phone_number")
MY_TEXTS = Rows("phone.user_text_messages", {"user_id": OWNER})
MY_VOICE = Rows("phone.user_voice_messages", {"user_id": OWNER})


def _texted(wi) -> set[str]:
    cache = wi.__dict__.setdefault("_texted", None)
    if cache is None:
        users = wi.tables.get("phone.users", {})
        ids = {m["sender_id"] for m in wi.tables.get("phone.global_text_messages", {}).values() if m["receiver_id"] == wi.owner_id}
        cache = wi.__dict__["_texted"] = {users[i]["phone_number"] for i in ids if i in users}
    return cache


ROWS = table(
    "messages",
    Read("messages_show_text_message_window", {"phone_number": "{phone_number}", "page_limit": 1}, "0.message",
         ("What was the last text between me and {first_name} {last_name}?", "latest message in my chat with {first_name} {last_name}?"),
         "The last text was: {v}", TEXTED),
    Read("messages_search_text_messages", {"phone_number": "{phone_number}"}, "#",
         ("How many texts have {first_name} {last_name} and I exchanged?", "count my texts with {first_name} {last_name}"),
         "You have {v} texts with {first_name} {last_name}.", TEXTED),
    Read("messages_show_text_message", {"text_message_id": "{global_text_message_id}"}, "message",
         ("What does text message {global_text_message_id} on my phone say?", "read me text {global_text_message_id}"),
         "It says: {v}", MY_TEXTS),
    Read("messages_search_voice_messages", {"only_latest_per_contact": True}, "#",
         ("From how many people do I have voice messages?", "how many people left me voice messages?"), "{v} people."),
    Read("messages_show_voice_message", {"voice_message_id": "{global_voice_message_id}"}, "message",
         ("What does voice message {global_voice_message_id} say?", "transcript of voice message {global_voice_message_id}?"),
         "It says: {v}", MY_VOICE),
    Read("messages_show_voice_message_window", {"phone_number": "{phone_number}"}, "#",
         ("How many voice messages do I have with {first_name} {last_name}?", "voice notes with {first_name} {last_name}, how many?"),
         "{v} voice messages.", PEOPLE),
    Write("messages_send_text_message", {"phone_number": "{phone_number}", "message": "{m}"},
          ("Text {first_name} {last_name}: {m}", "send {first_name} {last_name} a text saying '{m}'"), "I texted {first_name} {last_name}.",
          ("create", "phone.global_text_messages"), PEOPLE, values={"m": ("Running 10 minutes late.", "Got your package, thanks!")}),
    Write("messages_send_voice_message", {"phone_number": "{phone_number}", "message": "{m}"},
          ("Send {first_name} {last_name} a voice message: {m}", "voice note to {first_name} {last_name}: '{m}'"),
          "I sent the voice message.", ("create", "phone.global_voice_messages"), PEOPLE,
          values={"m": ("Call me back when you're free.", "Happy birthday!")}),
    Write("messages_delete_text_message", {"text_message_id": "{global_text_message_id}"},
          ("Delete text message {global_text_message_id} from my phone.", "remove text {global_text_message_id}"),
          "I deleted that text.", ("delete", "phone.user_text_messages"), MY_TEXTS),
    Write("messages_delete_voice_message", {"voice_message_id": "{global_voice_message_id}"},
          ("Delete voice message {global_voice_message_id}.", "remove voice message {global_voice_message_id} from my phone"),
          "I deleted the voice message.", ("delete", "phone.user_voice_messages"), MY_VOICE),
)
