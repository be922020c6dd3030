"""Pure readers and writers of programme formats around the `Programme` model. No ORM here."""
