"""Pages of a tournament's players: the list and registering, importing a file, teams."""
