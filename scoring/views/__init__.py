"""The scoring views, one module per capability; the URL modules import them directly."""
