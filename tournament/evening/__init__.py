"""The evening's structure: positions generated and published, tables and seats, swaps,
the position clock and the hall screen."""
