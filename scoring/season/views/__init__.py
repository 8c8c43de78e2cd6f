"""The pages of championships and statistics."""
