"""An attendee's agenda: stars, my agenda and its feeds, alerts, favourites files, planner."""
