"""The browser strings of online events (server/events_online.py and its pages): refusals the API answers
and the words of the event page and the arbiter's page, all in the web catalogue."""

from __future__ import annotations

from ..i18n import N_

NO_EVENT = N_("There is no online event number {id}.")
NOT_ONLINE = N_("Event {id} is not played online: its results are entered at the venue.")
REGISTRATION_CLOSED = N_("Registration is closed: round 1 has been paired.")
TEAM_NAME = N_("A team name is 1 to 100 characters long and not only digits.")
TEAM_TAKEN = N_("A team called “{name}” is entered already: choose another name.")
NO_PARTNER = N_("There is no player called {name}.")
SELF_PARTNER = N_("Your partner must be another player, not you.")
ALREADY_ENTERED = N_("You are entered in this event already.")
PARTNER_ENTERED = N_("{name} is entered in this event already.")
NO_INVITATION = N_("Nobody has asked you to be their partner in this event.")
NO_ENTRY = N_("You have no entry waiting in this event.")
NO_TABLE = N_("You have no table in this event's current round.")
TABLE_NOT_OPEN = N_("Your table is not open yet: the arbiter has not started the round.")
WRONG_KEY = N_("The arbiter key is wrong.")
DESK_REFUSED = N_("The tournament desk refused this; the detail says why.")
DESK_REFUSED_WHY = N_("The tournament desk refused this: {why}")
# the table's refusals at an online event's room (server/table.py)
SEATS_BOUND = N_("This table's seats belong to the players of an event: nobody else can take or change them.")
HELD = N_("The arbiter has paused this table: play goes on when the arbiter resumes it.")

MESSAGES: tuple[str, ...] = (
    NO_EVENT, NOT_ONLINE, REGISTRATION_CLOSED, TEAM_NAME, TEAM_TAKEN, SELF_PARTNER, ALREADY_ENTERED,
    PARTNER_ENTERED, NO_INVITATION, NO_ENTRY, NO_TABLE, TABLE_NOT_OPEN, WRONG_KEY, DESK_REFUSED, SEATS_BOUND, HELD,
    DESK_REFUSED_WHY,
    # the event page
    N_("Online event"), N_("Enter a team"), N_("Team name"), N_("Your partner's username"), N_("Enter"),
    N_("Waiting for {name} to confirm"), N_("{name} asks you to play as their partner in team “{team}”"),
    N_("Confirm"), N_("Decline"), N_("Withdraw the entry"), N_("Your team"), N_("Teams entered"),
    N_("Log in to enter this event"), N_("Standings"), N_("Pairings"), N_("Round {n}"),
    N_("Your table: table {table}, {side}"), N_("North–South"), N_("East–West"), N_("Go to your table"),
    N_("Your table's result is in"), N_("Result, North–South first: {result}"),
    N_("Waiting for the arbiter to start the next round"),
    N_("The event is over"), N_("Registration is open"),
    # the arbiter's page
    N_("Arbiter's page"), N_("Event page"),
    N_("Enter the event's arbiter key (given when the event was made) to see its tables and run its rounds."),
    N_("No tables yet: round {n} is not paired. “{action}” above pairs it and opens its tables."),
    N_("Arbiter"), N_("Arbiter key"), N_("Start the next round"), N_("Pause"), N_("Resume"), N_("Reason"),
    N_("Replace a player"), N_("Player"), N_("New player's username"), N_("Replace"), N_("Tables"),
    N_("absent"), N_("present"), N_("paused"), N_("Override"), N_("Done"), N_("Online events"), N_("vs"),
    N_("bye this round"), N_("Seats"), N_("Round clock: {time} left"), N_("Time warning: no new deal is started"),
    N_("Time is up: only the deals in play are finished"),
    # the site's list of events (/events, static/events.js) and the start page's link to it
    N_("Events"), N_("Being played"), N_("Open for entry"), N_("Recently finished"),
    N_("Tournaments played on this site's own tables: open an event to see its teams, standings and pairings, "
       "or to enter a team."),
    N_("No online events right now: an event appears here once its organiser has made it."),
    N_("Round {n} of {total}"), N_("Teams: {n}"), N_("Rounds: {n}"), N_("You are entered"), N_("Finished {time}"),
    # the event page's facts and links; an event's table (static/table.js): its round and table, the way back
    N_("All events"), N_("No team has entered yet"), N_("Swiss"), N_("Knockout"), N_("{n} deals a round"),
    N_("1 deal a round"), N_("{n} minutes a round"), N_("1 minute a round"), N_("Round {round}, table {table}"),
    N_("Back to the event"),
)
