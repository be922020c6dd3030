"""Speakers keep their own profile and sessions: their photo (photos.py), their slides
(slides.py, office.py, thumbnails.py) and what is checked before anything is kept."""
