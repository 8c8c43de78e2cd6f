"""The fields of the engine's Deal: the one list of a deal's inputs the engine scores.

Read from the engine's dataclass rather than listed again, so that a new engine input reaches
the desk's checks, the statistics and the exports at once.
"""

from __future__ import annotations

import dataclasses

from scoring.core.deal import Deal as EngineDeal

ENGINE_FIELDS: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(EngineDeal))
