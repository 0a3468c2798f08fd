"""Password hashes for accounts: argon2id through argon2-cffi, with the RFC 9106 low-memory parameters
(64 MiB, three passes) unless the caller picks others (the tests pick the cheapest)."""

from __future__ import annotations

from argon2 import Parameters, PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError


class Passwords:
    """Hashes and checks passwords. A check against no account still costs one hash, so that a wrong
    username takes as long to refuse as a wrong password (the timing tells no one which names exist)."""

    def __init__(self, parameters: Parameters = profiles.RFC_9106_LOW_MEMORY) -> None:
        self.hasher = PasswordHasher.from_parameters(parameters)
        self._dummy = self.hasher.hash("not a password of anyone")

    def hash(self, password: str) -> str:
        return self.hasher.hash(_bytes(password))

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (None: no such account, always False)."""
        try:
            return self.hasher.verify(stored if stored is not None else self._dummy, _bytes(password)) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other parameters than today's (it is then hashed again at login)."""
        try:
            return self.hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True


def _bytes(password: str) -> bytes:
    # JSON may carry a lone surrogate, which strict UTF-8 cannot encode: such a password is still just bytes
    return password.encode("utf-8", "surrogatepass")
