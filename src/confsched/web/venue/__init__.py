"""At the venue: the now board, the offline copy, print and PDF, the embed."""
