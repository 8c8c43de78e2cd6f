"""Pages of a tournament itself: the home page, the list and settings, the lifecycle."""
