"""A tournament itself: the desk's list, creating one, its settings, finishing, closing
and reopening, naming its staff."""
