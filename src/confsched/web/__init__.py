"""Public pages, one package per feature (see urls.py, the table of contents); confsched.web
itself is installed for the serve command."""
