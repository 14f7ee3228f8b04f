"""Many nodes, one room: table ownership by lease, fenced writes (docs/cluster.md)."""
