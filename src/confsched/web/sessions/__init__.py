"""Session and speaker pages, the speakers list, link preview cards, structured data."""
