"""PDF documents for the club's printer: one module per document, all rendered by WeasyPrint."""
