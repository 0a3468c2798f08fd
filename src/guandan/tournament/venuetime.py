"""The venue's time: the zone a tournament's people read and type wall-clock times in.

The log stores every time as UTC with its offset, and reads a stored time without one as UTC (SQLite drops the
zone of its stamps: :func:`.state.parse_time`). A person is another matter: an arbiter in Huai'an who types
``14:05`` means 14:05 Beijing time. So a time typed without a zone is read in the venue's zone, and a time
shown to a person is shown in it, with the zone's name and UTC offset, so that nobody has to guess.

The venue's zone is the event's ``time_zone`` setting (an IANA name such as ``Asia/Shanghai``, recorded in
the log when the event is made or when the arbiter changes it), or else the zone of the machine the desk
runs on. It changes what people read and how their typing is understood, never what the log holds: a log
replays the same whatever zone it is read in.
"""

from __future__ import annotations

import os
import zoneinfo
from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from ..core.errors import shown
from ..i18n import N_
from .errors import refusal

#: Names the time zone database holds that are no place's zone: the machine's own setting and tzcode's files.
NOT_PLACES = frozenset({"localtime", "posixrules", "Factory"})
#: The longest zone name the log takes (the longest IANA name is about 30 characters).
NAME_MAX = 64


# ---- the zone ------------------------------------------------------------------------------------
def zone_names() -> frozenset[str]:
    """Every zone this machine's time zone database knows (the system's, or the ``tzdata`` package's)."""
    return frozenset(available_timezones()) - NOT_PLACES


def check_zone(name: Any) -> str:
    """``name`` as a zone the event can keep: an IANA name this machine knows (``Asia/Shanghai``, ``UTC``).
    A name in the wrong case or with spaces for underscores is refused naming the right one."""
    if not isinstance(name, str) or not name.strip():
        raise refusal(N_("the venue's time zone must be an IANA name such as Asia/Shanghai, not {zone}"),
                      zone=shown(name))
    key = name.strip()
    known = zone_names()
    if key in known:
        return key
    if not known:
        raise refusal(N_("the time zone {zone} cannot be checked: this machine has no time zone database "
                         "(install the system's tzdata)"), zone=shown(key))
    near = {z.casefold(): z for z in known}.get(key.replace(" ", "_").casefold())
    if near is not None:
        raise refusal(N_("{zone} is not a time zone; did you mean {name}?"), zone=shown(key), name=near)
    raise refusal(N_("{zone} is not a time zone: give an IANA name, such as Asia/Shanghai for China"),
                  zone=shown(key))


def check_zone_form(name: Any) -> None:
    """Refuse a logged zone setting that cannot be a zone's name at all. Whether this machine knows the zone
    is checked only on entries being added (:func:`check_zone`): a log must replay on any machine."""
    if name is None:
        return
    if not (isinstance(name, str) and 0 < len(name) <= NAME_MAX and name.isprintable() and name == name.strip()):
        raise refusal(N_("the venue's time zone must be an IANA name such as Asia/Shanghai, not {zone}"),
                      zone=shown(name))


def _named(key: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # unknown, malformed, or a folder of the database
        return None


def _key_of(path: Path) -> str | None:
    """The zone name of a file in a time zone database (``/usr/share/zoneinfo/Asia/Shanghai``)."""
    for root in zoneinfo.TZPATH:
        try:
            key = path.relative_to(root).as_posix()
        except ValueError:
            continue
        if key not in NOT_PLACES and _named(key) is not None:
            return key
    return None


def local_zone() -> tzinfo:
    """The machine's zone: ``$TZ`` when it is set, else ``/etc/localtime`` (``/etc/timezone`` on Debian), by
    its IANA name wherever the machine says it; a zone only known by its rules is used without a name."""
    tz = os.environ.get("TZ")
    if tz is not None:
        key = tz.removeprefix(":")
        if not key:
            return UTC  # the C library reads an empty TZ as UTC
        if key.startswith("/"):
            named = _key_of(Path(key))
            if named is not None:
                return ZoneInfo(named)
            try:
                with open(key, "rb") as f:
                    return ZoneInfo.from_file(f)
            except (OSError, ValueError):
                pass
        elif (zone := _named(key)) is not None:
            return zone
        return _offset_now()  # a POSIX rule such as CST-8: the C library applies it
    localtime = Path("/etc/localtime")
    try:
        named = _key_of(localtime.resolve(strict=True)) if localtime.is_symlink() else None
    except OSError:
        named = None
    if named is None:
        try:
            text = Path("/etc/timezone").read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            text = ""
        named = text if text and text not in NOT_PLACES and _named(text) is not None else None
    if named is not None:
        return ZoneInfo(named)
    try:
        with localtime.open("rb") as f:
            return ZoneInfo.from_file(f)
    except (OSError, ValueError):
        return _offset_now()


def _offset_now() -> tzinfo:
    zone = datetime.now().astimezone().tzinfo
    return zone if zone is not None else UTC


def venue_zone(name: str | None) -> tzinfo:
    """The zone times are shown in: the event's (``name``), else the machine's. A zone this machine does not
    know (a log from elsewhere, a machine without its database) is shown as UTC, and says so."""
    if name is None:
        return local_zone()
    zone = _named(name)
    return zone if zone is not None else UTC


def typing_zone(name: str | None) -> tzinfo:
    """The zone a typed time without an offset is read in: as :func:`venue_zone`, but a zone the event has
    and this machine does not know is refused rather than guessed."""
    if name is None:
        return local_zone()
    zone = _named(name)
    if zone is None:
        raise refusal(N_("this machine does not know the event's time zone {zone}: give the time with its offset, "
                         "such as 2026-05-01 14:05+08:00"), zone=name)
    return zone


# ---- showing a time ------------------------------------------------------------------------------
def offset_text(offset: timedelta | None) -> str:
    """A UTC offset as people write it: ``UTC+08:00``, ``UTC-03:30``."""
    minutes = round((offset or timedelta()).total_seconds() / 60)
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def zone_label(zone: tzinfo, at: datetime) -> str:
    """The zone as it stands at ``at``: ``Asia/Shanghai (UTC+08:00)``, ``UTC``, or the offset alone for a
    zone without a name."""
    offset = offset_text(at.astimezone(zone).utcoffset())
    key = getattr(zone, "key", None)
    if zone is UTC or key in ("UTC", "Etc/UTC"):
        return "UTC"
    return f"{key} ({offset})" if key else offset


def wall_time(t: datetime, zone: tzinfo) -> str:
    """``t`` on the venue's clocks, to the second: ``2026-12-05 14:05:00``."""
    return t.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")


def clock_time(t: datetime, zone: tzinfo, day: datetime) -> str:
    """``t`` on the venue's clocks, its date left out when it is the date of ``day`` there: ``14:55:00``."""
    local = t.astimezone(zone)
    return local.strftime("%H:%M:%S") if local.date() == day.astimezone(zone).date() else wall_time(t, zone)


def shown_time(t: datetime, zone: tzinfo) -> str:
    """``t`` as a person reads it: ``2026-12-05 14:05:00 Asia/Shanghai (UTC+08:00)``."""
    return f"{wall_time(t, zone)} {zone_label(zone, t)}"


def stamp(t: datetime, zone: tzinfo) -> str:
    """``t`` in ISO 8601 on the venue's clocks, with its offset, to the second: ``2026-12-05 14:05:00+08:00``
    (a log's listing: a person reads the venue's time, and the offset keeps it exact)."""
    return t.astimezone(zone).isoformat(sep=" ", timespec="seconds")


# ---- reading a time a person typed ----------------------------------------------------------------------
def read_time(value: Any, zone: tzinfo | Callable[[], tzinfo], now: datetime, what: str) -> datetime:
    """The time a person typed (``what`` names where: ``--at``): ``14:05`` (today at the venue), ``14:05:30``,
    ``2026-12-05 14:05`` or ``2026-12-05T14:05``, each read in ``zone``, or with an offset (``+08:00``, ``Z``),
    which is honoured (a time of day with an offset is today's in that offset). ``：`` (a Chinese keyboard's
    colon) is read as ``:``. A time that the venue's clocks skipped or showed twice (a change of summer time)
    is refused: it needs its offset. ``zone`` may be a function: it is then asked only for a time without an
    offset (:func:`typing_zone` refuses a zone this machine does not know)."""
    text = value.strip().replace("：", ":") if isinstance(value, str) else ""
    t: datetime | None = None
    if ":" in text or "T" in text.upper():  # a date alone is no time of day
        try:
            t = datetime.fromisoformat(text)
        except ValueError:
            try:
                clock = time.fromisoformat(text)
            except ValueError:
                pass
            else:
                where = clock.tzinfo or (zone if isinstance(zone, tzinfo) else zone())
                t = datetime.combine(now.astimezone(where).date(), clock)
    if t is None:
        raise refusal(N_("{what} must be a time such as 14:05, 2026-05-01 14:05 or 2026-05-01 14:05+08:00 "
                         "(ISO 8601), not {value}"), what=what, value=shown(value))
    if t.tzinfo is not None:
        return t
    return localized(t, zone if isinstance(zone, tzinfo) else zone(), what)


def localized(naive: datetime, zone: tzinfo, what: str) -> datetime:
    """A wall-clock time without a zone, in ``zone``; refused where those clocks skipped it or showed it twice."""
    first, second = naive.replace(tzinfo=zone, fold=0), naive.replace(tzinfo=zone, fold=1)
    written = naive.strftime("%Y-%m-%d %H:%M")
    if first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != naive:
        ahead = first.astimezone(UTC).astimezone(zone)
        raise refusal(N_("{what} {time} does not exist in {zone}: the clocks went forward then; give the time with "
                         "its offset, such as {example}"), what=what, time=written, zone=_name(zone),
                      example=_with_offset(naive, ahead.utcoffset()))
    if first.utcoffset() != second.utcoffset():
        raise refusal(N_("{what} {time} happens twice in {zone}: the clocks went back then; give it with its offset, "
                         "{first} or {second}"), what=what, time=written, zone=_name(zone),
                      first=_with_offset(naive, first.utcoffset()), second=_with_offset(naive, second.utcoffset()))
    return first


def _name(zone: tzinfo) -> str:
    return getattr(zone, "key", None) or str(zone)


def _with_offset(naive: datetime, offset: timedelta | None) -> str:
    return naive.strftime("%Y-%m-%d %H:%M") + offset_text(offset).removeprefix("UTC")

