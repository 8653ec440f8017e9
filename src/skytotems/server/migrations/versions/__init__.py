"""Alembic revisions (one module each; this file only makes the folder a package)."""
