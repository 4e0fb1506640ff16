"""Web search: look a catalog item up on the web."""

from ..rows import Read, Rows, table

ROWS = table(
    "web_search",
    Read("web_search_serper", {"query": "{name}"}, "0.link",
         ("Find me a web link for the {name}.", "search the web for '{name}' and give me the top link"),
         "The top result is {v}.", Rows("amazon.products", unique="name")),
    Read("web_search_serper", {"query": "{name}"}, "0.link",
         ("Look up the artist {name} on the web and give me the first link.", "web search '{name}' - first link?"),
         "The first link is {v}.", Rows("spotify.artists", unique="name")),
)
