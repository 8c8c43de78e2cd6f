"""Spreadsheet exports, one module per document."""
