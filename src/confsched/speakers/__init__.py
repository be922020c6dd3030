"""Speakers keep their own profile: their photo (photos.py) and, later, their bio and links."""
