"""The Showdown server: lobby REST, table WebSockets, persistence and the AI gateway."""
