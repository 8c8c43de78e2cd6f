"""Who may do what on which tournament, and when: permissions, roles, staff, the state
that gates writes (lifecycle), the history every write leaves (audit), login and attempt
limits."""
