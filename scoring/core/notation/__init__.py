"""The desk's keyboard notation: `keys` (the keys and what a row is), `reading` (a typed row to
deal fields), `writing` (deal fields back to the same keys)."""
