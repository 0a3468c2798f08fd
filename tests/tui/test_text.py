"""The table and level panels say exactly the public facts, in the presenter's words (你/下家/对家/上家),
with no Python value (None, [3, 3], T for 10, LJ/BJ) anywhere."""

from __future__ import annotations

import re
from dataclasses import replace

from guandan.agents.hints import HintReason
from guandan.core.cards import parse_cards
from guandan.core.combos import classify
from guandan.core.deal import Observation
from guandan.core.events import Event, FirstLead, Passed, Played, Reported, RoundWon, WentOut
from guandan.core.match import MatchObservation
from guandan.core.rules import preset
from guandan.core.vocab import Phase
from guandan.i18n import Translator, translator
from guandan.present import Presenter
from guandan.tui.text import level_line, presenter, seat_infos, table_lines, typed_tokens

RULES = preset("competition")
LEAKS = re.compile(r"None|True|False|\[|\]|\{|\}|'|\bT\b|\bLJ\b|\bBJ\b|jkr")


def play(seat: int, text: str) -> Played:
    cards = tuple(sorted(parse_cards(text)))
    return Played(seat, cards, classify(cards, 0, RULES)[0])


def observe(events: list[Event], *, to_move: int, top: Played | None, reported: dict[int, int],
            finish: tuple[int, ...] = (), levels: tuple[int, int] = (0, 0), declarer: int | None = 1,
            hand: str = "S4 S4", phase: Phase = Phase.PLAY) -> MatchObservation:
    deal = Observation(phase=phase, to_move=to_move, level=0, reported=reported, played_counts=(0, 0, 0, 0),
                       top=(top.player, top.cards, top.combo) if top is not None else None, finish=finish,
                       events=tuple(events), prev_finish=None, first_leader=0, seat=0,
                       hand=tuple(parse_cards(hand)), legal=())
    return MatchObservation(deal=deal, deal_index=4, levels=levels, declarer=declarer, a_failures=(0, 2),
                            points=(0, 0, 0, 0), winner=None, ended=False)


def test_table_mid_round(en: Translator, pen: Presenter) -> None:
    partner = play(2, "ST")
    events = [FirstLead(0), play(0, "S3"), Passed(1), partner, Reported(2, 9)]
    lines = table_lines(observe(events, to_move=3, top=partner, reported={2: 9}), pen, en)
    assert lines == [
        "You · 2 cards · leads: single 3: ♠3",
        "Next opponent: pass",
        "Partner · 9 cards · winning: single 10: ♠10",
        "Previous opponent · to play",
    ]
    zh = table_lines(observe(events, to_move=3, top=partner, reported={2: 9}), presenter("zh"), translator("tui", "zh"))
    assert zh == ["你 · 2张 · 先出：单张 3：♠3", "下家：不要", "对家 · 9张 · 本轮最大：单张 10：♠10", "上家 · 该出牌"]


def test_a_seat_that_reported_shows_its_count_in_red(en: Translator, pen: Presenter) -> None:
    """报牌 (10 cards or fewer) stands out at the table: the count was drawn like the seat's other words."""
    from guandan.tui.app import TableView

    partner = play(2, "ST")
    events = [FirstLead(0), play(0, "S3"), Passed(1), partner, Reported(2, 9)]
    infos = seat_infos(observe(events, to_move=3, top=partner, reported={2: 9, 1: 0}, finish=(1,)), pen, en)
    assert [i.reported for i in infos] == [False, False, True, False]  # seat 1 is out: nothing to warn of
    head = TableView()._head(infos[2])
    styles = {head.plain[span.start:span.end]: str(span.style) for span in head.spans}
    assert styles["9 cards"] == "bold red" and styles["winning"] == "green"


def test_a_side_seat_keeps_whose_turn_and_who_wins_when_both_sides_are_long(en: Translator, pen: Presenter) -> None:
    """The two side seats share the middle line at 80 columns: a long one takes what the other leaves, and what is
    cut first is who led the round (the log says it), not "winning" ("Next opponent · 2 cards · leads · wi…")."""
    from guandan.tui.app import TableView

    top = play(1, "S9")
    events = [FirstLead(1), top, Reported(1, 2), Passed(2), Reported(3, 6)]
    infos = seat_infos(observe(events, to_move=3, top=top, reported={1: 2, 3: 6}), pen, en)
    assert infos[1].marks == ["winning", "leads"]
    table = TableView()
    table.show(infos, " · ")
    middle = table.render().plain.splitlines()[2]
    assert len(middle) == 76  # the table's inner width at 80 columns
    assert middle.startswith("Previous opponent · 6 cards · to play ")
    assert "Next opponent · 2 cards · winning · " in middle
    # a short side leaves its room to the other: 接风 is told beside a seat whose line was cut at half the width
    events = [FirstLead(3), play(3, "S3"), WentOut(3, 1), Passed(0), Passed(1), Passed(2), RoundWon(3, 1, True)]
    table.show(seat_infos(observe(events, to_move=1, top=None, reported={1: 2}, finish=(3,)), pen, en), " · ")
    middle = table.render().plain.splitlines()[2]
    assert middle.startswith("Previous opponent · 1st ") and "Next opponent · 2 cards · to play · leads after" in middle


def test_the_seat_to_move_is_told_what_is_due_in_tribute_and_return(en: Translator, pen: Presenter) -> None:
    zh, pzh = translator("tui", "zh"), presenter("zh")
    due = {}
    for phase in (Phase.TRIBUTE, Phase.RETURN, Phase.CHOOSE):
        obs = observe([], to_move=0, top=None, reported={}, phase=phase)
        due[phase] = (seat_infos(obs, pen, en)[0].marks, seat_infos(obs, pzh, zh)[0].marks)
    # "to play" (该出牌) while the card to give was being chosen: nobody plays before the tribute is settled
    assert due[Phase.TRIBUTE] == (["to pay tribute"], ["该进贡"])
    assert due[Phase.RETURN] == (["to return a card"], ["该还贡"])
    assert due[Phase.CHOOSE] == (["to take a tribute card"], ["该选贡"])


def test_table_after_jiefeng(en: Translator, pen: Presenter) -> None:
    events = [FirstLead(0), play(0, "S3"), WentOut(0, 1), Passed(1), Passed(2), Passed(3), RoundWon(0, 2, True)]
    obs = observe(events, to_move=2, top=None, reported={}, finish=(0,), hand="")
    infos = seat_infos(obs, pen, en)
    assert infos[0].marks == ["1st"] and infos[0].count == "0 cards"
    assert infos[2].marks == ["to play", "leads after jiefeng"] and infos[2].to_move
    # the event itself is told once, by the presenter
    assert pen.event(events[-1]) == ["Jiefeng: Partner takes the lead"]
    assert presenter("zh").event(events[-1]) == ["接风：对家出牌"]


def test_level_line_shows_levels_declarer_and_a_attempts(en: Translator, pen: Presenter) -> None:
    obs = observe([], to_move=0, top=None, reported={}, levels=(3, 12))
    assert level_line(obs, pen, en) == ["Deal 5 · playing level 2", "Your team 5 : Opponents A (failed 2×)",
                                        "declarer Opponents"]
    zh = level_line(observe([], to_move=0, top=None, reported={}, declarer=None), presenter("zh"),
                    translator("tui", "zh"))
    assert zh == ["第5副 · 打2", "我方 2 : 对方 2", "暂无庄家"]


def test_the_table_names_the_level_and_the_declarer_as_the_log_does() -> None:
    """The log's deal line said "playing level 2 … declarer Opponents" (打2 … 庄家 对方) where the table said
    "playing 2" and "declarer: Opponents" (庄家：对方): a player matching the two reads the same words."""
    from guandan.core.events import DealStart

    obs = observe([], to_move=0, top=None, reported={}, levels=(3, 12), declarer=1)
    for lang in ("en", "zh"):
        p = presenter(lang)
        head, _levels, declarer = level_line(obs, p, translator("tui", lang))
        logged = p.event(DealStart(obs.deal_index, obs.deal.level, obs.declarer, obs.levels))[0]
        assert logged.startswith(head + " · ") and logged.endswith(" · " + declarer), (head, declarer, logged)


def test_the_table_and_the_log_write_the_levels_alike_own_team_first() -> None:
    """The log's deal line reads as the table's level lines ("Your team 2 : Opponents 5", 我方 2 : 对方 5: each team
    named, the seat's own first), and the settlement's and the match end's levels are the same named pair."""
    from guandan.core.events import DealSettled, DealStart, MatchOver

    obs = observe([], to_move=0, top=None, reported={}, levels=(0, 3), declarer=1)
    settled = DealSettled(finish=(1, 3, 0, 2), levels=(0, 3), next_declarer=1, upgrade=3, partner_place=2)
    over = MatchOver(winner=1, levels=(4, 12), deals=7, points=(0, 0, 0, 0))
    for lang, pair, final in (("en", "Your team 2 : Opponents 5", "final levels Your team 6 : Opponents A"),
                              ("zh", "我方 2 : 对方 5", "最终级数：我方 6 : 对方 A")):
        p = presenter(lang)
        head, levels, declarer = level_line(obs, p, translator("tui", lang))
        assert levels == pair
        logged = p.event(DealStart(obs.deal_index, obs.deal.level, obs.declarer, obs.levels))
        assert logged == [f"{head} · {levels} · {declarer}"]
        assert p.settlement(settled)[0].endswith(pair), p.settlement(settled)
        assert p.event(over)[0].endswith(final), p.event(over)
        assert not LEAKS.search(logged[0] + p.settlement(settled)[0] + p.event(over)[0])
    # the second seat's team is its own: its level first
    assert Presenter("en", viewer=1).levels((0, 3)) == "Your team 5 : Opponents 2"
    assert Presenter("en").levels((0, 3)) == "2:5"  # a face with no seat of its own: Team 1's first, as ever


def test_the_level_line_fits_an_80_column_border_when_both_teams_failed_at_a() -> None:
    from rich.cells import cell_len

    for lang in ("en", "zh"):
        obs = replace(observe([], to_move=0, top=None, reported={}, levels=(12, 12), declarer=0), a_failures=(2, 2))
        parts = level_line(obs, presenter(lang), translator("tui", lang))
        bottom = translator("tui", lang).gettext(" · ").join(parts[1:])
        assert cell_len(bottom) <= 80 - 6, bottom  # "╰─ " and " ─╯" around it
        assert bottom.count("2") == 2  # both teams' failures are told


def test_the_final_table_counts_the_deals_played(en: Translator, pen: Presenter) -> None:
    # after the tenth deal the engine's deal index is 10 (the deal that would come next); A failures no
    # longer count once a team has passed A
    obs = replace(observe([], to_move=0, top=None, reported={}, levels=(4, 12)), deal_index=10, ended=True, winner=1)
    assert level_line(obs, pen, en) == ["Match over after 10 deals", "Your team 6 : Opponents A", "declarer Opponents"]
    zh = level_line(obs, presenter("zh"), translator("tui", "zh"))
    assert zh[0] == "10副后比赛结束"


def test_nothing_on_the_table_leaks_a_python_value(en: Translator) -> None:
    events = [FirstLead(0), play(0, "ST HT"), play(1, "LJ LJ"), play(2, "BJ BJ"), Passed(3)]
    for lang in ("zh", "en"):
        p, tr = presenter(lang), translator("tui", lang)
        obs = observe(events, to_move=3, top=events[3], reported={1: 3}, declarer=None)  # type: ignore[arg-type]
        for line in [*table_lines(obs, p, tr), *level_line(obs, p, tr)]:
            assert not LEAKS.search(line), line


def test_typed_tokens_write_ten_as_10() -> None:
    assert typed_tokens(parse_cards("ST H2 LJ BJ"), level=0) == "S10 H2* LJ BJ"


def test_hint_reasons_have_words_in_both_languages() -> None:
    for lang in ("zh", "en"):
        p = presenter(lang)
        texts = [p.hint_reason(r) for r in HintReason]
        assert all(texts) and len(set(texts)) == len(texts)
        assert not any(LEAKS.search(t) or "_" in t for t in texts)
    assert presenter("zh").hint_reason(HintReason.LET_PARTNER_WIN) == "不要：对家这一轮最大"
    assert presenter("en").hint_reason(HintReason.BEAT_SMALLEST) == "the smallest play of this kind that beats the table"


def test_each_hint_says_a_reason_true_of_it() -> None:
    """At level 2 a pair of 2s beats a pair of 5s, but it is not the smallest pair that does: ♣6♦6 is."""
    from guandan.agents.hints import hints
    from guandan.core.deal import Action
    from guandan.core.moves import legal_moves
    from guandan.core.vocab import ActionKind

    hand = tuple(parse_cards("S2 D2 C6 D6 S9 SK"))
    top = play(3, "S5 H5")
    legal = tuple(Action(ActionKind.PASS, 0) if m.combo is None else Action(ActionKind.PLAY, 0, m.cards, m.combo)
                  for m in legal_moves(hand, top.combo, 0, RULES))
    base = observe([FirstLead(3), top], to_move=0, top=top, reported={})
    obs = replace(base, deal=replace(base.deal, hand=hand, legal=legal))
    for lang in ("en", "zh"):
        p = presenter(lang)
        told = {p.action(h.action): p.hint_reason(h.reason) for h in hints(obs, 5, RULES)}
        if lang == "en":
            assert told["pair 6: ♣6 ♦6"] == "the smallest play of this kind that beats the table"
            assert told["pair 2: ♠2 ♦2"] == "beat the play on the table"
        else:
            assert told["对子 6：♣6 ♦6"] == "管上：同类牌里能管上的最小一手"
            assert told["对子 2：♠2 ♦2"] == "管上桌上的牌"


def test_a_played_wildcard_is_starred_in_the_place_it_stands_for(en: Translator) -> None:
    partner = play(2, "ST CJ SQ H2 SA")  # at level 2 the ♥2 is the wildcard, here the K
    obs = observe([FirstLead(0), play(0, "S3 S4 S5 S6 C7"), Passed(1), partner], to_move=3, top=partner,
                  reported={})
    seat = seat_infos(obs, presenter("en"), en)[2]  # a fresh presenter: the level comes from the observation
    assert seat.last == "straight 10–A: ♠10 ♣J ♠Q ♥2* ♠A"
    assert seat.last_cards == "♠10 ♣J ♠Q ♥2* ♠A"
