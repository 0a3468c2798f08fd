"""Our protocol client with a faulty agent (a plugin tier): a raise of any kind, or an answer that is not one
of the offered actions, is said as the agent's fault and answered with index 0; it was "a field holds a value
of the wrong type or shape", as if the server's message were at fault, and a RuntimeError ended the client."""

from __future__ import annotations

from .helpers import FaultyLeader, FirstLegal, play_seated


def test_a_faulty_agents_answers_are_said_as_its_own_and_the_game_goes_on() -> None:
    """The faulty agent answers nothing on its first lead and raises on its second."""
    reports = play_seated([FaultyLeader(raises=True), FirstLegal(), FirstLegal(), FirstLegal()])
    faulty = reports[0]
    assert faulty.result is not None  # the game went on to its end
    assert faulty.errors[:2] == ["our agent answered nothing, which is not one of the offered actions; answered 0",
                                 "our agent raised RuntimeError: my bug; answered 0"]
    assert faulty.fallbacks == 2
    assert not any("wrong type or shape" in e for e in faulty.errors)
