"""The season: championships across tournaments, and players' and tournaments' statistics."""
