"""What each app keeps of a player, for the account's own actions (accounts.actions): its part of the
copy of their data, what closing the account ends at once, and what the erasure 30 days later
removes. accounts is the lowest layer and never imports the apps above it: each registers its part
here in its AppConfig.ready(), as the push app registers its channel with notifications."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AccountPart:
    """`export(user)`: this part of the copy of the player's data, plain JSON values, never another
    player's hidden information or personal data. `close(user)`: called once when the player closes
    the account, before it is made inactive, in the closing transaction. `erase(user)`: called by the
    erasure, in its transaction."""

    name: str
    export: Callable[[Any], Any] | None = None
    close: Callable[[Any], None] | None = None
    erase: Callable[[Any], None] | None = None


_parts: dict[str, AccountPart] = {}


def register_account_part(
    name: str,
    *,
    export: Callable[[Any], Any] | None = None,
    close: Callable[[Any], None] | None = None,
    erase: Callable[[Any], None] | None = None,
) -> None:
    """Add (or replace: ready() may run twice in tests) the part called `name`; parts run in the order
    they were first registered, which is the apps' order in INSTALLED_APPS."""
    _parts[name] = AccountPart(name, export=export, close=close, erase=erase)


def account_parts() -> list[AccountPart]:
    return list(_parts.values())
