"""Sessionize API JSON exports: a reader only (`read`)."""
