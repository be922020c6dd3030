"""The schedule: list, grid, filters, zones page, search, kept pages, exports, change log."""
