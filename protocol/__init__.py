"""The wire protocol shared by the server, its web clients and the AI workers.

`protocol.messages` holds every message model (pydantic) and their parsers;
`protocol.schema` writes the JSON Schema the web client's types are generated from.
The game itself (`holdem`) knows nothing of it.
"""
