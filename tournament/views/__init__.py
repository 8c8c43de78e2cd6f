"""The tournament app's pages, by capability: `tournaments`, `players`, `imports`, `teams`,
`positions` (the arbiter's desk), `lifecycle` (finish, close, reopen, staff), `signup` (online
registration and check-in) and `home`; `common` holds what they share.

Every desk view asks tournament.access on the tournament it works on: scorers of a tournament
may read its plans and lists (they need them at the tables); only its arbiters change anything.
Views stay thin: look up, check the permission, call one service, respond.
"""

from .home import home

__all__ = ["home"]
