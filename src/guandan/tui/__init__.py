"""Play in the terminal (`guandan play`): one person (seat 0) against bots, as a Textual app or in
plain line mode. :mod:`.session` holds the match and the bots, :mod:`.selection` turns input into
legal actions, :mod:`.text` says everything through the ``tui`` message catalogue."""
