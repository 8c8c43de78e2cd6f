"""Clubs on one shared server: creating them, their members, and the roster's licence conflicts."""
