"""Prompts of the LLM generation pipeline (our own wording). Every stage answers with one JSON object."""

from __future__ import annotations

SYSTEM = (
    "You design test scenarios for an assistant that operates a simulated smartphone for its owner. "
    "A scenario is a short conversation: the owner sends pictures and requests over several rounds, and the "
    "assistant reads the pictures and uses the phone's apps. Answer with exactly one JSON object and nothing else."
)

ASSOCIATE = """Here are the pictures the owner has (index: category and what each one shows):
{images}

The phone has these apps: {apps}.
For every picture, list the apps whose tools could use what it shows (for example a receipt total can become a
Venmo request, a poster's date a calendar event).
Answer: {{"associations": {{"<index>": ["app", ...], ...}}}}"""

GROUP = """Pictures and the apps they suit:
{associations}

Group the pictures into sets that naturally belong to one task (every picture in exactly one group, at most
three groups). Prefer groups of the same kind of picture.
Answer: {{"groups": [[<index>, ...], ...], "why": "<one sentence>"}}"""

VIABILITY = """Groups of pictures: {groups}
Pictures: {images}

Rate from 0 to 10 how well these groups support each way information can flow from pictures into the task:
{flows}
and each way pictures can arrive during the conversation: {arrivals}.
Answer: {{"flows": {{"<flow>": <score>, ...}}, "arrivals": {{"<arrival>": <score>, ...}}}}"""

OUTLINE = """Plan a scenario with these properties:
- information flow: {flow} ({flow_help})
- challenge: {challenge} ({challenge_help})
- picture arrival: {arrival} ({arrival_help})
- pictures: {images}
- groups: {groups}
- between 2 and 5 rounds; every picture is sent exactly once.
Answer: {{"rounds": [{{"goal": "<what the owner wants>", "image_ids": [<ids sent this round>], "kind": "task|goal_change|correction|state_mutation"}}, ...],
"entities_needed": ["<rows the phone must already hold, e.g. a note to update>", ...]}}"""

EXPAND = """Write the full rounds of this plan:
{outline}

Pictures (the assistant must read these values from the pictures; never write them in a query):
{images}

Tools you may use in solutions (name: parameters):
{tools}

The owner is user {owner_id} ({owner_name}, {owner_email}). Refer to rows that must already exist with
{{"$entity": "<label>"}} in solution arguments (you will list those rows in the next step); refer to the result of an
earlier step with {{"$ref": "<save_as label>.<field>"}} after giving that step "save_as".
For each round give: "query" (what the owner says; deictic references such as "the second receipt", no values
shown only in pictures), "image_ids", "kind", "instructions" (private guidance for the owner), "clarifications"
([{{"keywords": [...], "answer": "..."}}] when the assistant must ask), "state_changes" (changes the owner makes
to the phone before speaking), "solution" (tool calls {{"name", "arguments", "save_as"?}} and {{"say": "..."}} for
questions), "answer" (the assistant's closing message, stating every value the owner asked for) and "facts" (the
values that answer must contain).
Answer: {{"description": "...", "rounds": [...]}}"""

ENTITIES = """These rounds refer to rows that must exist on the phone before the conversation:
{labels}

Rounds:
{rounds}

Table columns:
{schemas}

Write each row (omit its id; it is assigned for you). Add one or two similar-looking distractor rows where that
makes the task realistic, without any value that appears only in the pictures.
Answer: {{"entities": [{{"label": "<label or distractor_N>", "table": "<app.table>", "row": {{...}}}}, ...]}}"""

CRITIQUE = """Review this scenario for a benchmark of picture-reading phone assistants:
{scenario}

Check: every round needs the pictures; no query, instruction or clarification reveals a value shown only in a
picture; the solution does what the queries ask and nothing else; the answers state the requested values.
Answer: {{"ok": true|false, "problems": ["..."]}}"""

FLOW_HELP = {
    "aggregate": "collect values from several pictures into one place",
    "compare": "pick the picture that wins on some value",
    "filter": "keep only the items that satisfy a condition",
    "compute": "derive a number from values in the pictures",
    "validate": "check stored rows against the pictures and fix mismatches",
    "lookup_chain": "use a value from a picture to find a row, then act on that row",
    "cross_reference": "match pictures against a list already on the phone",
}
CHALLENGE_HELP = {
    "none": "a plain sequence of requests",
    "goal_change": "the owner changes their mind in a later round",
    "error_correction": "the owner made a mistake and corrects it later",
    "state_mutation": "the owner changes something on the phone between rounds",
}
ARRIVAL_HELP = {
    "upfront": "all pictures arrive in the first round",
    "progressive": "every round brings new pictures",
    "late": "the first round has no pictures",
    "mixed": "pictures arrive in two or more rounds and some round brings none",
}
