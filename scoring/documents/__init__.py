"""Documents: printed PDFs, spreadsheet and CSV exports, a tournament's backup and restore."""
