"""Table talk (聊天): the fixed quick phrases and emotes a seat may send — never free text, so nothing a
player reads at the table can be abuse, and every phrase reads in the reader's language (web catalogue).
Rate-limited per seat (Settings.talk_rate); each reader can mute any seat on their own page.
"""

from __future__ import annotations

from ..i18n import N_

PHRASES: dict[str, str] = {
    "hello": N_("Hello, everyone!"),
    "luck": N_("Good luck!"),
    "nice": N_("Nice play!"),
    "partner": N_("Well played, partner!"),
    "hurry": N_("Please hurry up a little"),
    "think": N_("Let me think"),
    "sorry": N_("Sorry!"),
    "thanks": N_("Thanks!"),
    "again": N_("One more match?"),
    "bye": N_("Goodbye!"),
}
"""phrase id → its msgid in the web catalogue."""

EMOTES: dict[str, str] = {
    "thumbs": "👍", "laugh": "😄", "wow": "😮", "cry": "😢", "angry": "😠", "flower": "🌹",
}
"""emote id → the emoji shown (the same in every language)."""


def known(phrase: str) -> bool:
    return phrase in PHRASES or phrase in EMOTES
