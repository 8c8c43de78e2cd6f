"""Players: the shared roster and who is who, registering for a tournament, teams,
importing a file of players, licences and names."""
