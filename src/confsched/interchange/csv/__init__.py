"""The CSV spreadsheet format, one row per session: the reader (`read`) and the writer (`write`)."""
