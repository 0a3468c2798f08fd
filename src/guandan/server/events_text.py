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
# an organiser's new event (POST /api/events, static/event_new.js): each refusal names the form's field
NOT_ORGANISER = N_("Only an organiser can create an event: ask the person who runs the site to make your account one.")
EVENT_NAME = N_("Event name: 1 to 200 characters, not only spaces.")
EVENT_NAME_PLAIN = N_("Event name: it cannot hold control characters (tabs, line breaks, direction marks).")
EVENT_FORMAT = N_("Format: choose Swiss or Knockout.")
EVENT_ROUNDS = N_("Rounds: a Swiss event plays 1 to 99 rounds.")
EVENT_ROUNDS_KO = N_("Rounds: a knockout's most rounds is 0 (as many as its teams need) to 99.")
EVENT_DEALS = N_("Deals a round: 0 (no limit) to 99.")
EVENT_MINUTES = N_("Minutes a round: 0 (no limit), or 5 to 1440 (the time warning comes 5 minutes before the end).")
EVENT_PRESET = N_("Rules: choose one of the presets.")
# the table's refusals at an online event's room (server/table.py)
SEATS_BOUND = N_("This table's seats belong to the players of an event: nobody else can take or change them.")
HELD = N_("The arbiter has paused this table: play goes on when the arbiter resumes it.")

MESSAGES: tuple[str, ...] = (
    NO_EVENT, NOT_ONLINE, REGISTRATION_CLOSED, TEAM_NAME, TEAM_TAKEN, SELF_PARTNER, ALREADY_ENTERED,
    PARTNER_ENTERED, NO_INVITATION, NO_ENTRY, NO_TABLE, TABLE_NOT_OPEN, WRONG_KEY, DESK_REFUSED, SEATS_BOUND, HELD,
    DESK_REFUSED_WHY,
    NOT_ORGANISER, EVENT_NAME, EVENT_NAME_PLAIN, EVENT_FORMAT, EVENT_ROUNDS, EVENT_ROUNDS_KO, EVENT_DEALS,
    EVENT_MINUTES, EVENT_PRESET,
    # the event page
    N_("Online event"), N_("Enter a team"), N_("Team name"), N_("Your partner's username"), N_("Enter"),
    N_("Waiting for {name} to confirm"), N_("{name} asks you to play as their partner in team “{team}”"),
    N_("Confirm"), N_("Decline"), N_("Withdraw the entry"), N_("Your team"), N_("Teams entered"),
    N_("Entries closed before {name} confirmed: team “{team}” is not in the event."),
    N_("Entries closed before you confirmed: team “{team}” is not in the event."),
    N_("Log in to enter this event"), N_("Standings"), N_("Pairings"), N_("Round {n}"),
    N_("Your table: table {table}, {side}"), N_("North–South"), N_("East–West"), N_("Go to your table"),
    N_("Your table's result is in"), N_("Result, North–South first: {result}"),
    N_("Waiting for the arbiter to start the next round"),
    N_("The event is over"), N_("Registration is open"),
    N_("The event is over: the teams below are in their final places."),
    N_("Entries are closed: the event is under way. Follow it through the Standings and Pairings links above."),
    # the arbiter's page
    N_("Arbiter's page"), N_("Event page"),
    N_("Enter the event's arbiter key (given when the event was made) to see its tables and run its rounds."),
    N_("No tables yet: round {n} is not paired. “{action}” above pairs it and opens its tables."),
    N_("Arbiter"), N_("Arbiter key"), N_("Start the next round"), N_("Pause"), N_("Resume"), N_("Reason"),
    N_("Replace a player"), N_("Player to replace"), N_("New player's username"), N_("Replace"), N_("Tables"),
    N_("absent"), N_("present"), N_("paused"), N_("Override"), N_("Done"), N_("Online events"), N_("vs"), N_("Bye"),
    N_("Your team has a bye this round"), N_("Seats"), N_("Round clock: {time} left"), N_("Time warning: no new deal is started"),
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
    # the organiser's form for a new event (/events/new) and what the new event's page tells its organiser
    N_("New event"), N_("Event name"), N_("Format"), N_("Rounds"), N_("Deals a round"), N_("Minutes a round"),
    N_("Rules"), N_("Create the event"),
    N_("Creating an event needs an account: log in or sign up, and this page opens again."),
    N_("A Swiss event plays this many rounds; a knockout plays as many as its teams need, at most this many "
       "(0: no limit)."),
    N_("0: no limit."),
    N_("Teams of two accounts enter on the event's page; you start each round from the arbiter's page."),
    N_("Your event is made. Its arbiter key opens the arbiter's page, where you start each round: keep it "
       "private, and write it down."),
    N_("Arbiter key:"), N_("Open the arbiter's page"),
    N_("You find it here again whenever you are logged in to this account; nobody else is shown it."),
    # each team's final place, once the event is over
    N_("Place {n}"),
)
