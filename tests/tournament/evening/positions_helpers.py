"""A small individual tournament with its players registered, for the position tests."""

from tournament.models import Player, Tournament

NAMES = [
    "Arnaud", "Blanc", "Carpentier", "Dubois", "Escoffier", "Faure", "Girard", "Hubert",
    "Isnard", "Jacquet", "Klein", "Lemoine", "Marchand", "Noël", "Olivier", "Perrin",
    "Quentin", "Roux", "Simon", "Thomas", "Urbain", "Vidal",
]  # fmt: skip


def make_tournament(players: int = 16, positions: int = 4, **settings) -> Tournament:
    tournament = Tournament.objects.create(
        name="Open", date="2026-11-21", positions_count=positions, **settings
    )
    for number, name in enumerate(NAMES[:players], start=1):
        player = Player.objects.create(last_name=name, first_name="Jo")
        tournament.registrations.create(player=player, number=number)
    return tournament
