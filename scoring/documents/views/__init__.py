"""The downloads: printed PDFs, exports, backups."""
