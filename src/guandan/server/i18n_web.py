"""The browser's strings: the gettext domain "web" (src/guandan/locale/{zh,en}/LC_MESSAGES/web.po),
served as one JSON object per language so that the page needs no catalogue machinery of its own.
Every msgid the front end uses is listed in :data:`MESSAGES` (the front end looks them up by msgid).
"""

from __future__ import annotations

from ..i18n import N_, translator
from .events_text import MESSAGES as EVENT_MESSAGES
from .talk import PHRASES
from .wire import WHY

LANGS = ("zh", "en")

MESSAGES: tuple[str, ...] = (
    N_("Guandan"), N_("Create a room"), N_("Rule preset"), N_("Turn timer (seconds, 0 = none)"),
    N_("Card counter"), N_("Deals (empty = whole match)"), N_("Seat"), N_("Open seat"), N_("Create"),
    N_("Join by code"), N_("Room code"), N_("Join"), N_("Your name"), N_("Sit here"), N_("Add bot"),
    N_("Remove bot"), N_("Ready"), N_("Not ready"), N_("Spectate"), N_("Share this link"),
    N_("Waiting for players"), N_("Replays"),
    N_("Every seat is a bot: watch them play a whole match, or remove one and take its seat to play"),
    N_("Every seat is a bot: the match begins when the room's creator starts it for everyone to watch"),
    N_("Every seat is a bot, and this server runs no bot matches to watch: remove one and take its seat to play"),
    N_("Every seat is a bot, and this server runs no bot matches to watch: "
       "the match begins once the room's creator frees a seat"),
    N_("Import a record…"), N_("Play"), N_("Pass"), N_("Hint"),
    N_("Sort"), N_("Auto-play"), N_("Auto-play is on: a bot plays for you"), N_("Take back control"),
    N_("Your turn"), N_("Pay tribute: pick your card"), N_("Return a card"), N_("Choose a tribute card"),
    N_("Choose the reading"), N_("Not a legal play"), N_("Level"), N_("Declarer"), N_("A failures"),
    N_("Finishing order"), N_("Deal over"), N_("Match over"), N_("Cards left"), N_("Spectating"),
    N_("Reconnecting…"), N_("Winner"), N_("Team"), N_("Replay"),
    N_("Export record"), N_("Previous"), N_("Next"), N_("Deal {n}"), N_("Deals played: {n}"), N_("bot"), N_("human"),
    N_("Move {n} of {total}"), N_("Start · {total} moves"),  # the replay's step: the deal's move n, as the review counts
    N_("Tribute"), N_("Anti-tribute: no tribute"), N_("Reported"), N_("cards left"), N_("Result"),
    N_("Levels"), N_("Leave"), N_("Room"), N_("Played"), N_("Remaining"), N_("online"), N_("offline"),
    N_("wildcard"),  # a played 逢人配 card's label, beside its name
    N_("* marks a wildcard: the ♥ card of the level, which stands in for any card but a joker"),  # the log's legend
    N_("Seed (practice only)"), N_("Rules"),
    # fair deals: the commitment shown at the table, the practice-seed rule
    N_("Deal commitment"),
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
    N_("Queued; reviews ahead: {n}"), N_("Reviewing… decisions: {done} / {total}"), N_("Reviewing…"),
    N_("The review could not be made"), N_("Accuracy"), N_("This deal"),
    N_("{worlds} sampled worlds per decision"), N_("Costliest decisions of this deal"),
    N_("Costliest decisions"), N_("No decision was an inaccuracy, a mistake or a blunder"), N_("Good"),
    N_("No decision of this deal was an inaccuracy, a mistake or a blunder"), N_("Costliest decisions of the match"),
    N_("Inaccuracy"), N_("Mistake"),
    N_("Blunder"), N_("Evaluation, expected level points: the move played (solid) and the best found (dashed)"),
    N_("Step to a decision of this seat (a point of the graph) to see its verdict"),
    N_("{label}: costs about {loss} level points (± {se})"),
    N_("Too many reviews are waiting; ask again in a few minutes"),
    N_("You have reviews waiting already; ask again once they are done"),
    # the table
    N_("Last trick"), N_("Log"), N_("Practice"),
    # play now
    N_("Play now"), N_("Bot strength"), N_("Play against three bots"),
    # the names of the bot tiers and rule presets as the pages show them (the msgid is the wire name)
    N_("random"), N_("greedy"), N_("heuristic"), N_("search"),
    # a tier named with what it is (the start page's seats; the words are the cli catalogue's: rooms.bot_tier_descriptions)
    N_("{tier}: {description}"),
    N_("competition"), N_("huaian-traditional"), N_("huaian-2009"), N_("huopin"),
    # the replay viewer: the match's result, the deal list with each deal's result, the deal-end panel
    N_("Match result"), N_("Deals and results"), N_("To the end of the deal"), N_("End of deal {n}"), N_("Next deal"),
    N_("Close"),
    # the open-room list of the start page (lobby.js) and the create form's choice to be in it
    N_("Open rooms"), N_("No open rooms right now"), N_("Could not load the open rooms"), N_("{n} s per turn"),
    N_("No timer"), N_("Seats taken"), N_("List this room in the lobby"),
)


MESSAGES += (N_("Bot {n} · {tier}"),)  # a bot seat's name (rooms.seat_names)
MESSAGES += (N_("Bot {n}"),)  # the same by its seat alone: a tribute line on a phone held sideways (table.js)
# the replay's corner (replay.js): the deal's level, in the language's punctuation ("级牌：2"), and both teams': a
# seat's own team first in a deal's review from the table, as the terminal client writes them, else Team 1's
MESSAGES += (N_("Level: {level}"), N_("Your team {a} : Opponents {b}"), N_("Team 1 {a} : Team 2 {b}"))
# a team and a seat's report by number, the number against the Chinese word (队1, 报牌6) as 座位2 is
MESSAGES += (N_("Team {n}"), N_("Reported {n}"))
# the review's line for the move at this step and the better one, in the language's punctuation ("这一手：…")
MESSAGES += (N_("This move: {move}"), N_("Better: {move}"))
# the replay: the play a pass or a play answered; the review: what the better move was worth, and what its numbers are
MESSAGES += (
    N_("To beat:"), N_("Expected level points for the team: {played} after this move, {best} after the better one"),
    N_("Level points: the levels a deal is expected to bring the seat's team, from +3 (a 1-2 finish) to −3 (the other "
       "team's 1-2 finish). Accuracy 100% is every decision as good as the best found."),
    N_("How it was worked out: for each decision the engine dealt the hidden cards {worlds} ways that fit what the "
       "seat could see then, and played each candidate move out; ± is the margin of that sampling (one standard error)."),
)
# the table: the end of a deal, 理牌, table talk and sound
MESSAGES += (
    N_(", "), N_("Deal {n} is over"), N_("{team} +{n}"), N_("No cards left"), N_("A failures: {n}"),
    N_("Next deal: {who} pay tribute"), N_("Continue"), N_("Waiting for {who}"), N_("{team} wins the match"),
    N_("By rank"), N_("By suit"), N_("Groups"), N_("Group"), N_("Mute"), N_("Sound off"), N_("Sound on"),
    N_("Talk"), N_("Return"), N_("Next deal: {who} pays tribute"), N_("Is ready"), N_("Is not ready"),
    N_("{who} pays tribute"), N_("{who} pay tribute"), N_("Room name"), N_("First play of a deal (seconds)"),
    N_("Play again"),
)
# what a refusal says to people (the ``text`` of an error frame or a REST refusal, rendered by the server:
# server/protocol.py Words; the page shows it as it comes), and how a bad frame or request body is told: the
# field it names (protocol.FIELD_NAMES) and its problem (protocol.PROBLEMS)
MESSAGES += (
    N_("A hint for your seat is still being worked out."),
    N_("A message to the table may be at most {n} bytes long."), N_("Auto-play is only for a match in progress."),
    N_("Nobody is to move now."), N_("It is the turn of seat {seat}, not yours: you are at seat {you}."),
    N_("Messages to the table must be JSON text, not binary."), N_("No match is being played in this room."),
    N_("Only a player of this match, with the seat token it was played with, may change who sees its replay."),
    N_("Only the host or a seated player may add or remove bots."), N_("Seat {seat} holds no bot."),
    N_("Seat {seat} is taken."), N_("Spectators cannot act."),
    N_("Table talk is one of the listed phrases and emotes, and this is none of them."),
    N_("The field “{field}” is missing."), N_("The field “{field}” is not one this request takes."),
    N_("The field “{field}” is not valid."), N_("The field “{field}” is not valid: {problem}."),
    N_("The match has started: seats are fixed."),
    N_("The next deal begins when every player has tapped Continue, or in {n} s."),
    N_("The server holds as many rooms as it can: try again later."),
    N_("The server is busy: try again in a moment."), N_("The server refused this request."),
    N_("This page asked to catch up with the table too often: wait a moment."),
    N_("A name may not hold control characters, line breaks or direction marks."),
    N_("Auto-play was switched on and off too often from your seat: wait a moment."),
    N_("The request is too large: at most {n} bytes are taken here."),
    N_("This record is too large: the server keeps records of at most {n} bytes."),
    N_("it holds a broken character (half of a surrogate pair)"),
    N_("The stored record of this replay does not replay: it cannot be shown."),
    N_("The table moved on before your move arrived: look at the current position and play again."),
    N_("There is no bot strength called {tier}."),
    N_("There is no language {lang} here: the pages speak {langs}."), N_("There is no replay {id}."),
    N_("There is no room with the code {code}."), N_("There is no seat {seat}: a table has seats 1 to 4."),
    N_("There is nothing at this address."), N_("These rule settings are not valid: the room was not created."),
    N_("These rule settings are not valid, so the room was not created: {reason}."),
    N_("This address does not take this kind of request."),
    N_("This address has {n} open rooms, as many as it may have: finish or leave one first."),
    N_("This address has 1 open room, as many as it may have: finish or leave it first."),
    N_("This file is not a game record that this server can replay."),
    N_("This file is not a game record that this server can replay: {problem}"),
    N_("This move is not allowed: {reason}."), N_("No plays can be listed for these cards: {reason}."),
    N_("This request could not be read: it is not valid JSON."),
    N_("This request is not in a form the server understands."),
    N_("Too many hints and readings for this seat: wait a moment."),
    N_("Too many hints and readings from this address: wait a moment."),
    N_("Too many hints and readings from this connection: wait a moment."),
    N_("Too many messages from this page: slow down."),
    N_("The table is moving to another server: try again in a moment."),
    N_("Too many rooms created or joined from this address: wait a minute."),
    N_("Too much table talk from your seat: wait a moment."),
    N_("Your page was ahead of the table: it now shows the table as it is."),
    N_("Your seat token holds no seat in this room."),
)
MESSAGES += (
    N_("action kind"), N_("auto-play switch"), N_("bot delay"), N_("bot strength"), N_("bots"), N_("card counter"),
    N_("cards"), N_("combination"), N_("first-play timer"), N_("listing in the lobby"), N_("message type"),
    N_("name"), N_("number of deals"), N_("number of hints"), N_("pause after a deal"), N_("phrase"), N_("ready"),
    N_("rule preset"), N_("rules"), N_("seat"), N_("seat token"), N_("seed"), N_("sequence number"), N_("tokens"),
    N_("turn timer"), N_("visibility"),
)
MESSAGES += (
    N_("it must be a list"), N_("it must be a number"), N_("it must be a whole number"),
    N_("it must be at least {limit}"), N_("it must be at least {limit} characters long"),
    N_("it must be at most {limit}"), N_("it must be at most {limit} characters long"),
    N_("it must be less than {limit}"), N_("it must be more than {limit}"),
    N_("it must be one of the values this field takes"), N_("it must be text"), N_("it must be true or false"),
    N_("it must have at least {limit} entries"), N_("it must have at most {limit} entries"),
)
MESSAGES += (N_("Player {n}"),)  # a player who joined without a name (rooms.seat_names, the open-room list)
# the lobby's join form without a code; a request that never reached the server (common.js api)
MESSAGES += (N_("Type the room code first."), N_("The server could not be reached: check the connection and try again."))
# accounts (server/auth.py, static/account.js): the account page, the lobby's header link, and the refusals
MESSAGES += (
    N_("Log in"), N_("Sign up"), N_("Username"), N_("Password"), N_("Display name"), N_("Display name (optional)"),
    N_("3 to 24 letters a to z, digits, “_” or “-”"), N_("At least 8 characters"), N_("Create account"),
    N_("Account"), N_("Save"), N_("Saved"), N_("Log out"), N_("Log out of every other device"), N_("My games"),
    N_("Change password"), N_("Current password"), N_("New password"), N_("Delete account"), N_("Delete my account"),
    N_("Imported"), N_("My player page"), N_("Open sessions: {n}"), N_("Other sessions logged out: {n}"),
    N_("Password changed. Other sessions logged out: {n}"),
    N_("Log in or sign up"),  # a guest's link at a rated room, back to it once logged in
    N_("Password changed."), N_("Forgot your password?"),
    N_("This site keeps no e-mail address, so it cannot send you a link to reset your password. Ask the person "
       "who runs the site (your club's organiser, say) to give your account a new one; log in with it, then choose "
       "your own under Change password."),
    N_("No games yet: the matches you play appear here once they are over"),
    N_("You can play as a guest: an account is optional. It keeps your name, your games and replays in one place."),
    N_("The games you played on this device as a guest become your account's when you sign up or log in."),
    N_("Deleting your account removes your name, your password and your sessions for good. The games you played "
       "stay, without your name."),
    N_("A display name is 1 to {max} characters long, with no control characters."),
    N_("A password may be at most {n} characters long."), N_("A password must be at least {n} characters long."),
    N_("A username holds only the letters a to z, digits, “_” and “-”, and begins with a letter or a digit."),
    N_("A username is {min} to {max} characters long."),
    N_("Logging in and signing up work only from the pages of this site."), N_("The current password is wrong."),
    N_("The name “{name}” is reserved: choose another."), N_("The password must not be the username."),
    N_("The username “{name}” is taken: choose another."),
    N_("This request lacks the security token of this page: reload the page and try again."),
    N_("Too many accounts made from this address: try again in {n} min."),
    N_("Too many wrong passwords for this account: try again in {n} min."),
    N_("Too many wrong passwords from this address: try again in {n} min."),
    N_("Type a username."), N_("Type your username and your password."), N_("Wrong username or password."),
    N_("You are not logged in: log in first."),
)
# rated rooms and the leaderboards (players.py): the lobby's create form, the table's badge, the header link
MESSAGES += (N_("Rated (accounts only)"), N_("Rated"), N_("Leaderboard"), N_("rated play"), N_("page"),
             N_("A rated room plays its preset's own rules with a secret seed, and needs at least one seat for a player."),
             N_("The seats of a rated room are for logged-in accounts: log in first."),
             N_("Your account holds a seat of this room already."), N_("There is no player called {name}."),
             N_("There is no rule preset called {preset}."))
# a match of four bots to watch (观战, TableService.watch): the lobby's button, the start page's one tap (and the
# name of its request's field, protocol.FIELD_NAMES), the table, the refusals
MESSAGES += (
    N_("Watch the bots play"), N_("Watch four bots play"), N_("start to watch"),
    N_("This bot match is paused: as many bot matches are running as the server allows (in all, or for your "
       "address). It goes on by itself once one stops."),
    N_("Only the creator of the room may start a match of four bots."),
    N_("Seat {seat} is not a bot: a match to watch needs a bot in every seat."),
    N_("This server does not run bot matches to watch."),
    N_("The server is running as many bot matches as it may at once ({n}): try again later."),
    N_("Your address already has {n} bot matches running, as many as it may: close one (a match stops once nobody "
       "has watched it for {s} s) and try again."),
    N_("Your address already has a bot match running, as many as it may: close it (a match stops once nobody has "
       "watched it for {s} s) and try again."),
)
MESSAGES += EVENT_MESSAGES  # online events (server/events_online.py, its pages, the table's refusals there)
MESSAGES += tuple(PHRASES.values())  # table talk's quick phrases (server/talk.py)
MESSAGES += tuple(WHY.values())  # why a selection is no legal play (wire.selection_verdict)

# the start page's way back to a table this browser holds a seat at (lobby.js)
MESSAGES += (N_("Your match in room {code} is still being played"), N_("You have a seat in room {code}"),
             N_("Back to the table"))
# how many deals a room plays: its lobby and the open-room list (common.js dealsText)
MESSAGES += (N_("Whole match, to A"), N_("1 deal"), N_("{n} deals"))
# a replay's title in the lists of replays (replay_title.js): the reader's own seat, and how the match ended, then
# both teams' levels, each named as the replay's corner writes them ("胜 · 我方 A : 对方 7", "队2 胜 · 队1 7 : 队2 A")
MESSAGES += (N_("You"), N_("Won · {levels}"), N_("Lost · {levels}"), N_("{team} won · {levels}"))
# an account's seat taken back on another device (TableService.reclaim, the start page's "Back to the table", the
# room's page's "Take your seat here")
MESSAGES += (N_("Your account holds no seat in this room."),
             N_("Your seat was taken on another device logged in to your account: this page now watches the table."),
             # the room's page of a device without the seat's token (table.js askClaim)
             N_("Your account holds seat {n} in this room."), N_("Take your seat here"))
# the review of a finished deal of a match in play: the table's link (table.js), the replay page showing it
MESSAGES += (N_("Review deal {n}"),
             N_("Deal {n} of a match in play: your decisions in it, as the engine judges them from what you knew then"))
# a link that leaves the table mid-deal asks first (table.js askLeave)
MESSAGES += (N_("Leave the table?"),
             N_("The deal goes on without you. Your seat stays yours: on your turns a bot plays for you after a few "
                "seconds (auto-play), and a table no player is at pauses. Open this room's link again in this browser "
                "to come back and take back control."),
             N_("Leave the table"), N_("Stay at the table"))
# a seat by its number (lobby, replay): the words the core's presentation and the server's refusals use ("座位2")
MESSAGES += (N_("Seat {n}"),)
# the replay's step controls: the jumps to the deal's first and last steps (short on a phone); the review graph's y-axis
MESSAGES += (N_("To the start of the deal"), N_("To the start"), N_("To the end"), N_("Expected level points"))

# the table's glossary (static/glossary.js): the words it looks for, what each means, the link to the rules
MESSAGES += (
    N_("Report"),
    N_("Jiefeng"),
    N_("double win"),
    N_("Anti-tribute"),
    N_("More in the rules"),
    N_("Level card (级牌)"),
    N_("The deal is played at one level, the declarer's. Cards of that rank are the level cards: they rank above "
       "the ace, below only the jokers. Each team climbs its own level from 2 to A."),
    N_("Wildcard (逢人配)"),
    N_("The two hearts of the level rank: each stands in for any card but a joker, to complete a pair, a straight"
       " or a bomb."),
    N_("Declarer (庄家)"),
    N_("The team that won the last deal: this deal is played at its level. The first deal has none and is played "
       "at 2."),
    N_("Announcing cards (报牌)"),
    N_("A player left with 10 cards or fewer after a play says how many are left: from then on the table shows "
       "the count."),
    N_("Taking over the lead (接风)"),
    N_("A player who goes out with a play nobody beats hands the lead of the next round to the partner."),
    N_("Double win (双上) and double loss (双下)"),
    N_("One team finishes 1st and 2nd: the deal ends at once and the team climbs the most levels. The other team,"
       " 双下, both pay tribute in the next deal."),
    N_("Tribute (进贡)"),
    N_("From the second deal on, before play, the last player of the previous deal (both losers after a double "
       "win) gives the winners the highest card in hand, never a wildcard."),
    N_("Return (还贡)"),
    N_("Whoever receives a tribute card gives one card back to its payer; under the competition rules a 2 to 10 "
       "that is not a level card."),
    N_("Anti-tribute (抗贡)"),
    N_("If those who should pay tribute hold both Big Jokers between them, nobody pays, and the winner of the "
       "last deal leads."),
    N_("A fingerprint of this deal's shuffle, shown before play (the SHA-256 of its secret seed). The replay "
       "reveals the seed once the match is over: anyone can check that the cards were not changed."),
    # the table's facts and countdowns, in the language's punctuation ("级牌：4", "继续（15）")
    N_("{label}: {value}"), N_("{text} ({n})"),
    # a bomb's size, as the presentation layer writes it (game.po): "bomb 9 ×5", "炸弹 9×5"
    N_("{bomb} ×{n}"),
    # what a seat paying tribute or returning a card may give (RULES.md §4.2.6), and the card it was given
    N_("Pay tribute: {card}, the only card you may pay"), N_("Return a card: {card}, the only card you may return"),
    N_("Return a card from 2 to 10, not a level card"),
    N_("Return a card from 2 to 10, not a level card: {card}, the only one you hold"),
    N_("Return one of your smallest cards: you hold no card from 2 to 10 that is not a level card"),
    N_("Return your smallest card, {card}: you hold no card from 2 to 10 that is not a level card"),
    N_("Received in tribute"), N_("Received as a return"),
)


def strings(lang: str) -> dict[str, str]:
    """msgid → translation for every browser string in ``lang``."""
    tr = translator("web", lang)
    return {m: tr.gettext(m) for m in MESSAGES}
