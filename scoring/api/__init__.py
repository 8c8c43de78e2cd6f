"""The JSON API of sheets and deals."""
