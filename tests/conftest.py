"""Real PostgreSQL and Redis for the tests that need them: a database of this run, a
schema per test; the machine's Redis with a pub/sub channel per test, or a private
redis-server that a test may restart.

The machines this project runs on provide PostgreSQL (127.0.0.1:5432, trust
authentication) and Redis (127.0.0.1:6379); `SKYTOTEMS_TEST_PG` names another admin URL,
`SKYTOTEMS_TEST_REDIS` another Redis. Without them, those tests
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

from private_redis import PrivateRedis, private_redis
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


REDIS_URL = os.environ.get("SKYTOTEMS_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The shared Redis of the machine (or SKYTOTEMS_TEST_REDIS), if it answers."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    try:
        client.ping()
    except (redis.RedisError, OSError) as exc:
        service_unavailable(f"Redis not reachable at {REDIS_URL}: {exc}")
    finally:
        client.close()
    return REDIS_URL


@pytest.fixture
def redis_channel() -> str:
    """A pub/sub channel of this test alone (channels are shared by every database number
    of a Redis, so tests running in parallel each need their own)."""
    return f"skytotems-test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def restartable_redis() -> Iterator[PrivateRedis]:
    """A redis-server of this test alone, on a port chosen now, that the test may stop and
    start again (tests/private_redis.py)."""
    with private_redis() as server:
        yield server
