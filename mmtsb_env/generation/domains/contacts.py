"""Contacts: read people's details, create / update / delete contacts."""

from ..rows import OWNER, Look, Read, Rows, Write, table

PEOPLE = Rows("phone.contacts", {"user_id": OWNER}, unique="first_name")
WORKERS = Rows("phone.contacts", lambda r, wi: r.get("user_id") == wi.owner_id and bool(r.get("work_address")), unique="first_name")

ROWS = table(
    "contacts",
    Read("contacts_search_contacts", {"query": "{first_name} {last_name}"}, "0.phone_number",
         ("What's {first_name} {last_name}'s phone number?", "can you pull up {first_name} {last_name}'s number"),
         "{first_name} {last_name}'s number is {v}.", PEOPLE),
    Read("contacts_search_contacts", {"query": "{first_name} {last_name}"}, "0.birthday",
         ("When is {first_name} {last_name}'s birthday?", "what's {first_name} {last_name}'s birthday again?"),
         "{first_name} {last_name}'s birthday is {v}.", PEOPLE),
    Read("contacts_search_contacts", {"query": "{first_name} {last_name}"}, "0.home_address",
         ("What home address do I have for {first_name} {last_name}?", "where does {first_name} {last_name} live?"),
         "{first_name} {last_name}'s home address is {v}.", PEOPLE),
    Read("contacts_search_contacts", {"query": "{first_name} {last_name}"}, "0.work_address",
         ("What's {first_name} {last_name}'s work address?", "where does {first_name} {last_name} work, address-wise?"),
         "{first_name} {last_name} works at {v}.", WORKERS),
    Read("contacts_show_contact_relationships", {}, "#",
         ("How many kinds of relationship tags does my contact book use?", "how many relationship labels are in my contacts?"),
         "Your contact book uses {v} relationship tags."),
    Read("contacts_show_profile", {}, "phone_number",
         ("Which phone number does my own contact card show?", "whats my own number in contacts"), "Your contact card shows {v}."),
    Write("contacts_add_contact", {"first_name": "{first}", "last_name": "{last}", "email": "{email}", "phone_number": "{phone}"},
          ("Add {first} {last} to my contacts: {email}, phone {phone}.", "new contact please - {first} {last}, {email}, {phone}"),
          "I added {first} {last} to your contacts.", ("create", "phone.contacts"),
          values={"first": ("Noor", "Tomasz", "Ines", "Kwame"), "last": ("Okafor-Lind", "Brandvold", "Quiroga-Hale"),
                  "email": ("noor.lindqvist@fastmail.test", "t.brandvold@mailbox.test"), "phone": ("4155550142", "6465550187")}),
    Write("contacts_update_contact", {"contact_id": "{id}", "phone_number": "{phone}"},
          ("{first_name} {last_name} has a new number: {phone}. Update my contacts.", "change {first_name} {last_name}'s phone to {phone}"),
          "{first_name} {last_name}'s number is now {phone}.", ("update", "phone.contacts"), PEOPLE,
          values={"phone": ("3125550199", "2065550123", "7185550166")}),
    Write("contacts_update_contact", {"contact_id": "{id}", "work_address": "{addr}"},
          ("Set {first_name} {last_name}'s work address to {addr}.", "{first_name} {last_name} moved offices: {addr}"),
          "I saved {addr} as {first_name} {last_name}'s work address.", ("update", "phone.contacts"), PEOPLE,
          values={"addr": ("12 Harbor Row, Portland, OR 97201", "880 Mill Street, Austin, TX 78701")}),
    Write("contacts_delete_contact", {"contact_id": "{id}"},
          ("Remove {first_name} {last_name} from my contacts.", "delete {first_name} {last_name} from my contact book"),
          "I removed {first_name} {last_name} from your contacts.", ("delete", "phone.contacts"), PEOPLE,
          pre=(("contacts_search_contacts", {"query": "{first_name} {last_name}"}),)),
)


# how staging makes look-alikes of the rows a task touches (generation.staging)
LOOKALIKES = {"phone.contacts": Look("first_name", person=True, fresh=("email", "phone_number"), by="name")}
