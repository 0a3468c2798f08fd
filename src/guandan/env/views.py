"""What both environments render: any seat's view or the spectator's public one, as text for a person.

``render_view`` names the view ``render()`` shows, ``render_text(view)`` gives any of them whatever the
``render_mode``; the words are the present layer's (:mod:`guandan.present.seat_view`), in the environment's
``lang``. A seat's view holds its own hand and no other; the spectator's holds none.
"""

from __future__ import annotations

from ..core.errors import GuandanError, shown
from ..i18n import N_
from .errors import env_error
from .table import Table

AGENTS = tuple(f"seat_{s}" for s in range(4))
"""The AEC environment's agents, one per seat in seat order; a view may name a seat by its agent."""

SPECTATOR = "spectator"

View = str | int | None
"""A view as an environment takes it: None (the environment's own seat), an agent ``"seat_2"``, a seat
number ``2`` or ``"spectator"``."""


def view_seat(view: View, lang: str) -> int | str | None:
    """``view`` as a seat number, :data:`SPECTATOR` or None (the environment's own seat), or an error in
    ``lang`` naming it."""
    if view is None or view == SPECTATOR:
        return view
    if view in AGENTS:
        return AGENTS.index(str(view))
    if isinstance(view, int) and not isinstance(view, bool) and view in range(4):
        return view
    raise env_error(GuandanError, lang, N_("a view is an agent seat_0…seat_3, a seat 0…3 or \"spectator\", "
                                           "not {value}"), value=shown(view))


class Views:
    """``render()`` and ``render_text(view)`` for an environment that holds a :class:`Table`, a ``lang``, a
    ``render_mode`` and a ``render_view``; it names the seat that None stands for (:meth:`_own_seat`). Listed
    before the library's base class, whose ``render()`` it replaces."""

    table: Table
    lang: str
    render_mode: str | None
    _render_view: View = None

    @property
    def render_view(self) -> View:
        """The view :meth:`render` shows (see :data:`View`); set at any time, a wrong one is refused as it is set
        (through a wrapper's ``set_wrapper_attr`` too), not at the next ``render()`` or ``step()``."""
        return self._render_view

    @render_view.setter
    def render_view(self, view: View) -> None:
        view_seat(view, self.lang)
        self._render_view = view

    def _own_seat(self) -> int:
        """The seat whose view None stands for."""
        raise NotImplementedError

    def render(self) -> str | None:
        """What :attr:`render_view` sees, as a few lines for a person in ``lang`` (``render_mode="ansi"``, else
        None; see :meth:`render_text`). By default the environment's own seat: the deal and the levels, its own
        last action, the round's last plays, its hand, its turn; never another seat's cards."""
        if self.render_mode != "ansi":
            return None
        return self.render_text()

    def render_text(self, view: View = None) -> str:
        """What ``view`` sees, as :meth:`render` shows it, whatever the ``render_mode``: ``None`` (by default
        :attr:`render_view`, itself None by default) the environment's own seat, an agent (``"seat_2"``) or a
        seat number (``2``) that seat's view (its hand, no other), ``"spectator"`` the public view (no hand,
        seats and teams named by number)."""
        seat = view_seat(self.render_view if view is None else view, self.lang)
        if isinstance(seat, str):  # the spectator
            return self.table.render_public(self.lang)
        return self.table.render(self._own_seat() if seat is None else seat, self.lang)


__all__ = ["AGENTS", "SPECTATOR", "View", "Views", "view_seat"]
