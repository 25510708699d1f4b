"""The log: a game's append-only, hash-chained events (event store, one recorder per database,
verification, export and import). It imports nothing above it: what the events mean (the fold,
the projection, the re-adjudication) is handed in by campaigns.turns."""
