"""Real PostgreSQL for the tests that need it: a database of this run, a schema per test.

The machines this project runs on provide PostgreSQL (127.0.0.1:5432, trust
authentication); `SKYTOTEMS_TEST_PG` names another admin URL. Without it, those tests
skip with the reason; `.ci/run` sets `SKYTOTEMS_REQUIRE_SERVICES=1`, which turns that
skip into a failure, so CI can never pass with them skipped.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from sqlalchemy.engine import make_url

from services import service_unavailable

PG_ADMIN_URL = os.environ.get("SKYTOTEMS_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


def _libpq(url: str) -> str:
    """A SQLAlchemy-style URL as libpq takes it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A database created for this test run (one per xdist worker), dropped at its end."""
    try:
        admin = psycopg.connect(_libpq(PG_ADMIN_URL), autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        service_unavailable(f"PostgreSQL not reachable at {PG_ADMIN_URL}: {exc}".strip())
    name = f"skytotems_test_{uuid.uuid4().hex[:12]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False)
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url(postgres_database: str) -> Iterator[str]:
    """A URL whose connections see only a fresh schema of the run's database."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_libpq(postgres_database), autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    yield f"{postgres_database}?options=-csearch_path%3D{schema}"
    with psycopg.connect(_libpq(postgres_database), autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
