"""The browser's strings: the gettext domain "web" (src/guandan/locale/{zh,en}/LC_MESSAGES/web.po),
served as one JSON object per language so that the page needs no catalogue machinery of its own.
Every msgid the front end uses is listed in :data:`MESSAGES` (the front end looks them up by msgid).
"""

from __future__ import annotations

from ..i18n import N_, translator
from .talk import PHRASES

LANGS = ("zh", "en")

MESSAGES: tuple[str, ...] = (
    N_("Guandan"), N_("Create a room"), N_("Rule preset"), N_("Turn timer (seconds, 0 = none)"),
    N_("Card counter"), N_("Deals (empty = whole match)"), N_("Seat"), N_("Open seat"), N_("Create"),
    N_("Join by code"), N_("Room code"), N_("Join"), N_("Your name"), N_("Sit here"), N_("Add bot"),
    N_("Remove bot"), N_("Ready"), N_("Not ready"), N_("Spectate"), N_("Share this link"),
    N_("Waiting for players"), N_("Replays"), N_("Import a record"), N_("Play"), N_("Pass"), N_("Hint"),
    N_("Sort"), N_("Auto-play"), N_("Auto-play is on: a bot plays for you"), N_("Take back control"),
    N_("Your turn"), N_("Pay tribute: pick your card"), N_("Return a card"), N_("Choose a tribute card"),
    N_("Choose the reading"), N_("Not a legal play"), N_("Level"), N_("Declarer"), N_("A attempts"),
    N_("Finishing order"), N_("Deal over"), N_("Match over"), N_("Cards left"), N_("Spectating"),
    N_("Reconnecting…"), N_("Winner"), N_("Team"), N_("Partner takes the lead (接风)"), N_("Replay"),
    N_("leads first; flipped card"),
    N_("Export record"), N_("Previous"), N_("Next"), N_("Deal"), N_("Step"), N_("bot"), N_("human"),
    N_("Tribute"), N_("Anti-tribute: no tribute"), N_("Reported"), N_("cards left"), N_("Result"),
    N_("Levels"), N_("Leave"), N_("Room"), N_("Played"), N_("Remaining"), N_("online"), N_("offline"),
    N_("Seed (practice only)"), N_("Rules"),
    # fair deals: the commitment shown at the table, the practice-seed rule
    N_("Deal commitment"), N_("SHA-256 of this deal's secret seed: the seed is revealed in the replay when the match is over"),
    N_("Practice: the creator chose the seed"),
    N_("A seed is only accepted for a practice room: every seat but yours must be a bot"),
    N_("A practice room with a chosen seed keeps its bots"),
    # the server under faults and limits: reconnecting, closed and paused rooms, private replays
    N_("Your controls come back when the connection does"), N_("This room closed after a long time without activity"),
    N_("No such room"), N_("Back to lobby"), N_("The table is paused: no player is connected. It goes on when one returns."),
    N_("This replay is private: only its players see it listed; anyone with the link can open it"),
    N_("This replay is public: everyone sees it in the lobby's list"), N_("Make public"), N_("Make private"),
    N_("yours"), N_("public"), N_("No replays yet: the matches you play appear here"),
    # the review (复盘) on the replay page
    N_("Review (复盘)"), N_("Review this seat"), N_("Ask again"),
    N_("The engine goes over every decision of the seat, from what it knew then"),
    N_("Queued: {n} reviews ahead"), N_("Reviewing… {done} / {total} decisions"), N_("Reviewing…"),
    N_("The review could not be made"), N_("Accuracy"), N_("This deal"),
    N_("{worlds} sampled worlds per decision"), N_("Costliest decisions of this deal"),
    N_("Costliest decisions"), N_("No decision lost anything"), N_("Good"), N_("Inaccuracy"), N_("Mistake"),
    N_("Blunder"), N_("Evaluation, expected level points: the move played (solid) and the best found (dashed)"),
    N_("Step to a decision of this seat (a point of the graph) to see its verdict"), N_("Next move"),
    N_("Better"), N_("Too many reviews are waiting; ask again in a few minutes"),
    N_("You have reviews waiting already; ask again once they are done"),
    # the table
    N_("Last trick"), N_("Log"), N_("Practice"),
    # play now
    N_("Play now"), N_("Bot strength"), N_("Play against three bots"),
    # the names of the bot tiers and rule presets as the pages show them (the msgid is the wire name)
    N_("random"), N_("greedy"), N_("heuristic"), N_("search"),
    N_("competition"), N_("huaian-traditional"), N_("huaian-2009"), N_("huopin"),
    # the replay viewer: the match's result, the deal list with each deal's result, the deal-end panel
    N_("Match result"), N_("Deals and results"), N_("To the end of the deal"), N_("End of deal {n}"), N_("Next deal"),
    N_("Close"),
    # the open-room list of the start page (lobby.js) and the create form's choice to be in it
    N_("Open rooms"), N_("No open rooms right now"), N_("Could not load the open rooms"), N_("{n} s per turn"),
    N_("No timer"), N_("Seats taken"), N_("List this room in the lobby"),
)


MESSAGES += (N_("Bot {n} · {tier}"),)  # a bot seat's name (rooms.seat_names)
MESSAGES += tuple(PHRASES.values())  # table talk's quick phrases (server/talk.py)


def strings(lang: str) -> dict[str, str]:
    """msgid → translation for every browser string in ``lang``."""
    tr = translator("web", lang)
    return {m: tr.gettext(m) for m in MESSAGES}
