"""Big events: several sessions for one field, cuts, brackets and the carry-over (issue 26).

Every bracket of every session is a Tournament (`event`, `session`, `bracket`); the field is
registered once, in session 1's main bracket, and each cut copies the registrations (the same
roster players, their numbers and teams) into the next session's brackets. What other pages
(the venue's cockpit, hall and public pages, the exports) read:

- `brackets`: `event_create` (the event and session 1's main bracket), `event_brackets` (the
  event's brackets by session), `bracket_create` (a bracket with settings copied).
- `standings`: `cumulative_standings(tournament)` — a bracket's ranking with the carry from
  the earlier sessions (scoring.core.events), `standings_order` for a final seated by rank.
- `cuts`: `cut_preview` (who would qualify, the tie report, no write) and `cut_apply`.
- `replace`: `cut_withdrawal_replace`, the next in line for a withdrawal after a cut.
"""
