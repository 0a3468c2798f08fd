"""复盘: the engine's review of every decision of a recorded match (``guandan review``).

:mod:`.engine` values one decision from the deciding seat's observation alone; :mod:`.verdict`
turns values into losses, labels, reasons and accuracy; :mod:`.report` reviews a whole record.
The definitions (level points, loss, labels, accuracy) are in ``docs/review-format.md``.
"""
