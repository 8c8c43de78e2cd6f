"""A table's own page on the players' phones: no account, a secret link scoped to one table.

The link's token opens one table (refused once the position is closed, the tournament finished
or the arbiter revoked it) and reads or writes nothing else. Who enters, confirms, contests or
corrects a deal is proved by a personal code the server checks (scoring.sheets.table_entry.codes):
from the phone's binding cookie, set once the player typed their code, or from a code sent with
the request; never from a seat the request names. Writes answer JSON so that the phone can queue
them offline and resend them.

`common` resolves the link and answers the refusals; `page` is the page itself and the code
typed instead of the QR code; `identity` binds a phone to its player; `deals` enters, corrects,
confirms and contests deals and finishes the sheet; `calls` calls the arbiter.
"""
