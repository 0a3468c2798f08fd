"""`RuleSet`: every variant difference of RULES.md §7, and the four presets of §8.1.

Code elsewhere never asks which preset it runs; it reads the key that names the rule.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any

from .errors import N_, RuleSetError, shown
from .vocab import (
    RANKS,
    BombOrder,
    ComboType,
    DoubleDownOrder,
    DoubleTributeLeader,
    EqualTributeAssignment,
    HuopinCombine,
    Jiefeng,
    ReturnRule,
    Scoring,
    StreakMode,
    StreakScope,
    WildResolution,
    parse_choice,
)

PRESET_NAMES = ("competition", "huaian-traditional", "huaian-2009", "huopin")


@dataclass(frozen=True)
class Streaks:
    """Streak bonus / penalty (连续头游/末游, §8.2). ``scope="player"`` counts each player's own deals in a row as
    头游 or 末游 (the preset); ``scope="team"`` counts the team's: the deals in a row in which either partner was."""

    first_threshold: int = 3
    last_threshold: int = 3
    mode: StreakMode = StreakMode.ESCALATING
    scope: StreakScope = StreakScope.PLAYER


@dataclass(frozen=True)
class RuleSet:
    """All configuration keys of RULES.md §7. Build one with :func:`preset` or :meth:`from_dict`."""

    name: str = "competition"
    straight_len: tuple[int, int] = (5, 5)
    tube_pairs: tuple[int, int] = (3, 3)
    plate_triples: tuple[int, int] = (2, 2)
    airplane: bool = False  # 飞机带翅膀
    max_bomb: int = 10
    chain_bombs: bool = False  # X相Y连环
    three_joker_bomb: bool = False  # 三王
    big_joker_wild: bool = False
    wild_resolution: WildResolution = WildResolution.DECLARE
    bomb_order: BombOrder = BombOrder.SIZE_LADDER
    full_house_joker_pair: bool = True
    sf_forced: bool = True
    allow_wild_underdeclare: bool = False
    upgrade_table: tuple[int, int, int] = (3, 2, 1)  # levels for 1-2, 1-3, 1-4
    overshoot_wins: bool = False
    a_pass_results: frozenset[int] = frozenset({2, 3})  # partner's finishing place
    a_pass_requires_declarer: bool = True
    a_max_failures: int | None = 3
    a_fail_reset_to: str = "2"
    streaks: Streaks | None = None
    jiefeng: Jiefeng = Jiefeng.PARTNER  # 接风
    return_rule: ReturnRule = ReturnRule.LE10  # 还贡
    equal_tribute_assignment: EqualTributeAssignment = EqualTributeAssignment.LEFT
    double_tribute_leader: DoubleTributeLeader = DoubleTributeLeader.PAYER_TO_FIRST
    double_down_order: DoubleDownOrder = DoubleDownOrder.TURN_ORDER
    report_threshold: int | None = 10  # 报牌
    scoring: Scoring = Scoring.LEVELS
    huopin_multiplier_combine: HuopinCombine = HuopinCombine.MAX
    match_points: tuple[int, int, int] = (2, 1, 0)  # 场分 for win, draw, loss

    # --- derived facts (not keys) -------------------------------------------------------
    @property
    def tube_type(self) -> ComboType:
        """RULES.md calls a fixed three-pair run `tube` and a variable-length one `pair_run`."""
        return ComboType.TUBE if self.tube_pairs == (3, 3) else ComboType.PAIR_RUN

    @property
    def plate_type(self) -> ComboType:
        return ComboType.PLATE if self.plate_triples == (2, 2) else ComboType.TRIPLE_RUN

    @property
    def declares(self) -> bool:
        return self.wild_resolution == WildResolution.DECLARE

    def upgrade(self, partner_place: int) -> int:
        """Levels gained by the winning team whose partner finished at ``partner_place`` (2, 3 or 4)."""
        return self.upgrade_table[partner_place - 2]

    # --- validation and serialisation ---------------------------------------------------
    def __post_init__(self) -> None:
        _validate(self)
        # RuleSets key the engine's caches; hashing every field on each lookup would dominate them
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, f.name) for f in fields(self))))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        # string hashes differ between processes: rebuild (and rehash) instead of copying _hash
        return (RuleSet.from_dict, (self.to_dict(),))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["a_pass_results"] = sorted(self.a_pass_results)
        d["straight_len"] = list(self.straight_len)
        d["tube_pairs"] = list(self.tube_pairs)
        d["plate_triples"] = list(self.plate_triples)
        d["upgrade_table"] = {"2": self.upgrade_table[0], "3": self.upgrade_table[1], "4": self.upgrade_table[2]}
        d["match_points"] = list(self.match_points)
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """A RuleSet from a dict: ``name`` picks the base preset (default competition), other keys override."""
        if not isinstance(data, dict):
            raise RuleSetError.said(N_("a RuleSet must be a JSON object, not {kind}"), kind=type(data).__name__)
        base = data.get("name", "competition")
        overrides = {k: v for k, v in data.items() if k != "name"}
        return preset(base, **overrides)

    @classmethod
    def from_json(cls, text: str) -> RuleSet:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RuleSetError.said(N_("RuleSet JSON is malformed: {reason}"), reason=str(e)) from None
        return cls.from_dict(data)

    def with_overrides(self, **overrides: Any) -> RuleSet:
        return replace(self, **{k: _coerce(k, v) for k, v in _checked(overrides).items()})


_KEYS = {f.name for f in fields(RuleSet)}


def _checked(overrides: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(overrides) - _KEYS)
    if unknown:
        known = ", ".join(sorted(_KEYS))
        raise RuleSetError.said(N_("unknown RuleSet key(s): {keys}; known keys: {known}"), keys=", ".join(unknown), known=known)
    return overrides


def _pair(key: str, v: Any) -> tuple[int, int]:
    if isinstance(v, int) and not isinstance(v, bool):
        return (v, v)
    if isinstance(v, list | tuple) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return (int(v[0]), int(v[1]))
    raise RuleSetError.said(N_("{key} must be [min, max] integers, not {value}"), key=key, value=shown(v))


def _coerce(key: str, v: Any) -> Any:
    """Turn JSON-ish values into the field's type (lists → tuples, dicts → Streaks, …)."""
    if key in ("straight_len", "tube_pairs", "plate_triples"):
        return _pair(key, v)
    if key == "upgrade_table":
        if isinstance(v, dict):
            try:
                return tuple(int(v[str(k)] if str(k) in v else v[k]) for k in (2, 3, 4))
            except (KeyError, TypeError, ValueError):
                raise RuleSetError.said(N_("upgrade_table needs integer entries for 2, 3 and 4, not {value}"),
                                        value=shown(v)) from None
        if isinstance(v, list | tuple) and len(v) == 3:
            return tuple(v)
        raise RuleSetError.said(N_("upgrade_table must be {{2: n, 3: n, 4: n}}, not {value}"), value=shown(v))
    if key == "a_pass_results":
        if isinstance(v, list | tuple | set | frozenset):
            return frozenset(v)
        raise RuleSetError.said(N_("a_pass_results must be a list of partner places (2, 3, 4), not {value}"), value=shown(v))
    if key == "streaks":
        if v is None or isinstance(v, Streaks):
            return v
        if isinstance(v, dict):
            bad = sorted(set(v) - {"first_threshold", "last_threshold", "mode", "scope"})
            if bad:
                raise RuleSetError.said(N_("unknown streaks key(s): {keys}"), keys=", ".join(bad))
            fields_ = dict(v)
            if "mode" in fields_:
                fields_["mode"] = parse_choice(StreakMode, fields_["mode"], "streaks.mode", RuleSetError)
            if "scope" in fields_:
                fields_["scope"] = parse_choice(StreakScope, fields_["scope"], "streaks.scope", RuleSetError)
            return Streaks(**fields_)
        raise RuleSetError.said(N_("streaks must be null or an object, not {value}"), value=shown(v))
    if key == "match_points":
        if isinstance(v, list | tuple) and len(v) == 3:
            return tuple(v)
        raise RuleSetError.said(N_("match_points must be [win, draw, loss], not {value}"), value=shown(v))
    if key in _CHOICES:
        return parse_choice(_CHOICES[key], v, key, RuleSetError)
    return v


_CHOICES: dict[str, type[StrEnum]] = {
    "wild_resolution": WildResolution,
    "bomb_order": BombOrder,
    "jiefeng": Jiefeng,
    "return_rule": ReturnRule,
    "equal_tribute_assignment": EqualTributeAssignment,
    "double_tribute_leader": DoubleTributeLeader,
    "double_down_order": DoubleDownOrder,
    "scoring": Scoring,
    "huopin_multiplier_combine": HuopinCombine,
}
_BOOLS = [
    "airplane", "chain_bombs", "three_joker_bomb", "big_joker_wild", "full_house_joker_pair", "sf_forced",
    "allow_wild_underdeclare", "overshoot_wins", "a_pass_requires_declarer",
]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _validate(r: RuleSet) -> None:
    if r.name not in PRESET_NAMES:
        raise RuleSetError.said(N_("name must be one of {presets}, not {value}"), presets=", ".join(PRESET_NAMES),
                                value=shown(r.name))
    for key, enum in _CHOICES.items():
        if not isinstance(getattr(r, key), enum):
            # a RuleSet built directly (not through preset/from_dict) may carry a plain string
            object.__setattr__(r, key, parse_choice(enum, getattr(r, key), key, RuleSetError))
    for key in _BOOLS:
        if not isinstance(getattr(r, key), bool):
            raise RuleSetError.said(N_("{key} must be true or false, not {value}"), key=key, value=shown(getattr(r, key)))
    for key, lo, hi in (("straight_len", 5, 13), ("tube_pairs", 3, 13), ("plate_triples", 2, 9)):
        v = getattr(r, key)
        if not (isinstance(v, tuple) and len(v) == 2 and all(_is_int(x) for x in v) and lo <= v[0] <= v[1] <= hi):
            raise RuleSetError.said(N_("{key} must be [min, max] with {lo} <= min <= max <= {hi}, not {value}"),
                                    key=key, lo=lo, hi=hi, value=shown(v))
    if not _is_int(r.max_bomb) or not 8 <= r.max_bomb <= 12:
        raise RuleSetError.said(N_("max_bomb must be an integer 8…12, not {value}"), value=shown(r.max_bomb))
    ut = r.upgrade_table
    if not (isinstance(ut, tuple) and len(ut) == 3 and all(_is_int(x) and 0 <= x <= 12 for x in ut)):
        raise RuleSetError.said(N_("upgrade_table values must be integers 0…12, not {value}"), value=shown(ut))
    if not (isinstance(r.a_pass_results, frozenset) and r.a_pass_results and r.a_pass_results <= {2, 3, 4}):
        raise RuleSetError.said(N_("a_pass_results must be a non-empty subset of {{2, 3, 4}}, not {value}"),
                                value=shown(r.a_pass_results))
    if r.a_max_failures is not None and (not _is_int(r.a_max_failures) or r.a_max_failures < 1):
        raise RuleSetError.said(N_("a_max_failures must be null or a positive integer, not {value}"),
                                value=shown(r.a_max_failures))
    if r.a_fail_reset_to not in tuple(RANKS):
        raise RuleSetError.said(N_("a_fail_reset_to must be a level 2…A, not {value}"), value=shown(r.a_fail_reset_to))
    if r.report_threshold is not None and (not _is_int(r.report_threshold) or not 0 <= r.report_threshold <= 27):
        raise RuleSetError.said(N_("report_threshold must be null or an integer 0…27, not {value}"),
                                value=shown(r.report_threshold))
    mp = r.match_points
    if not (isinstance(mp, tuple) and len(mp) == 3 and all(_is_int(x) for x in mp)):
        raise RuleSetError.said(N_("match_points must be three integers (win, draw, loss), not {value}"), value=shown(mp))
    s = r.streaks
    if s is not None:
        if not isinstance(s, Streaks):
            raise RuleSetError.said(N_("streaks must be null or an object, not {value}"), value=shown(s))
        if not isinstance(s.mode, StreakMode) or not isinstance(s.scope, StreakScope):
            object.__setattr__(s, "mode", parse_choice(StreakMode, s.mode, "streaks.mode", RuleSetError))
            object.__setattr__(s, "scope", parse_choice(StreakScope, s.scope, "streaks.scope", RuleSetError))
        if not (_is_int(s.first_threshold) and _is_int(s.last_threshold) and s.first_threshold >= 1
                and s.last_threshold >= 1):
            raise RuleSetError.said(N_("streak thresholds must be positive integers"))
    if r.airplane and r.plate_triples[1] < 2:
        raise RuleSetError.said(N_("airplane needs triple runs"))



_TRADITIONAL: dict[str, Any] = dict(
    return_rule="any",
    double_tribute_leader="last_place",
    a_max_failures=None,
)

_PRESETS: dict[str, dict[str, Any]] = {
    "competition": {},
    "huaian-traditional": dict(_TRADITIONAL, jiefeng="next_player", streaks=Streaks()),
    "huaian-2009": dict(_TRADITIONAL, upgrade_table=(4, 2, 1), a_pass_results=frozenset({2})),
    "huopin": dict(
        _TRADITIONAL,
        straight_len=(5, 13),
        tube_pairs=(3, 13),
        plate_triples=(2, 9),
        airplane=True,
        max_bomb=12,
        chain_bombs=True,
        three_joker_bomb=True,
        big_joker_wild=True,
        wild_resolution="strongest",
        bomb_order="stars",
        scoring="huopin_points",
    ),
}


def preset(name: str, /, **overrides: Any) -> RuleSet:
    """A named preset, optionally with keys overridden (validated; unknown keys are errors)."""
    if "name" in overrides:
        raise RuleSetError.said(N_("'name' is the preset a RuleSet starts from; choose another preset instead of overriding it"))
    if name not in _PRESETS:
        raise RuleSetError.said(N_("unknown preset {name}; presets: {presets}"), name=shown(name),
                                presets=", ".join(PRESET_NAMES))
    values = {k: _coerce(k, v) for k, v in _checked(dict(_PRESETS[name], **overrides)).items()}
    return RuleSet(name=name, **values)


