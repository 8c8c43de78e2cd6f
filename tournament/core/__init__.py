"""The pure core of the tournament app: seating, French collation, bounded JSON, the
translation vocabulary. Plain Python: no Django, no models (an import-linter contract)."""
