"""The pure core of scoring: rules, engine, sheet, rankings, penalties, figures,
championship and statistics arithmetic, notation, charts. Plain Python: no Django, no models
(an import-linter contract covers every module of the package).
"""
