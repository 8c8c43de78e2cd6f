"""Score sheets and deals, typed at the desk or on the tables' phones: entry,
corrections, confirmations, incidents and penalties, validation, a sheet's summary and
history, a position's overview, generated tournaments.
"""
