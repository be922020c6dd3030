"""c3voc JSON: schedule.json v1 (`read`, `write`) and schedule2 (`schedule2_read`,
`schedule2_write`)."""
