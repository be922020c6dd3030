"""Web Push (RFC 8030, message encryption RFC 8291, VAPID RFC 8292): notifications on the
phones and browsers that people opted in, sent by the task queue."""
