"""Live at the venue: what changes by the minute during the event and is no part of the
programme's versions (rooms that are full, the team's announcements)."""
