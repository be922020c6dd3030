"""Staff pages: insight (the admin's import page is in programme/)."""
