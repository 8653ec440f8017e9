"""Alembic migrations of the server's database (run at every start by `store.migrate`)."""
