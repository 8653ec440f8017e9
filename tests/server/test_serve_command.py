"""`skytotems serve` refuses bad arguments with a one-line error naming the option and
exit code 2, before starting anything (the real command, in a subprocess)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--port", "99999"], "--port"),
        (["--port", "-1"], "--port"),
        (["--db", "notaurl"], "--db"),
        (["--db", "sqlite:////no/such/dir/x.db"], "--db"),
        (["--log-level", "nonsense"], "--log-level"),
        (["--redis", "http://127.0.0.1:6379/0"], "--redis"),
        (["--redis", "redis://"], "--redis"),
        (["--redis", "redis://127.0.0.1:99999/0"], "--redis"),
        (["SKYTOTEMS_REDIS=memcached://127.0.0.1"], "--redis"),
    ],
)
def test_bad_serve_arguments_are_usage_errors(args: list[str], option: str, tmp_path: Path):
    env = dict(os.environ)
    env.update(a.split("=", 1) for a in args if "=" in a and not a.startswith("-"))
    args = [a for a in args if a.startswith("-") or "=" not in a]
    command = [sys.executable, "-c", "from skytotems.cli import main; main()", "serve", *args]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and option in errors[0], done.stderr
    assert not (tmp_path / "skytotems.db").exists()  # nothing was started or created


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SKYTOTEMS_TRUSTED_PROXIES", "10.0.0.1, not-an-address"),
        ("SKYTOTEMS_TRUSTED_PROXIES", "10.0.0.0/99"),
        ("SKYTOTEMS_HTTP_RATE", "lots"),
        ("SKYTOTEMS_HTTP_RATE", "600/fortnight"),
        ("SKYTOTEMS_CREATE_RATE", "20 a minute"),
        ("SKYTOTEMS_MAX_BODY_BYTES", "64k"),
        ("SKYTOTEMS_MAX_BODY_BYTES", "0"),
        ("SKYTOTEMS_IDLE_DAYS", "-1"),
        ("SKYTOTEMS_IDLE_CLOCK_LIMITS", "nan"),
        ("SKYTOTEMS_BOT_DELAY_MS", "soon"),
        ("SKYTOTEMS_SQLITE_SYNCHRONOUS", "sometimes"),
        # accepted at start, then every table socket failed with HTTP 500 (setsockopt)
        ("SKYTOTEMS_SEND_BUFFER_BYTES", "99999999999"),
        ("SKYTOTEMS_RECEIVE_BUFFER_BYTES", "4294967296"),
        # accepted, then a seat handed to that bot never moved
        ("SKYTOTEMS_TAKEOVER_LEVEL", "nonsense"),
        # ignored by `serve` (its --bot-workers default hid the variable)
        ("SKYTOTEMS_BOT_WORKERS", "999"),
    ],
)
def test_bad_environment_values_are_usage_errors(variable: str, value: str, tmp_path: Path):
    """A bad value of a setting's variable is one line naming the variable, exit 2, before
    anything starts (it used to be a traceback, or a server refusing every request)."""
    command = [sys.executable, "-c", "from skytotems.cli import main; main()", "serve"]
    env = {**os.environ, variable: value}
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and variable in errors[0], done.stderr
    assert not (tmp_path / "skytotems.db").exists()


def test_the_database_comes_from_skytotems_db_when_no_option_names_it(tmp_path: Path):
    """SKYTOTEMS_DB is read by `serve` (the --db default used to hide it): a bad URL there
    is refused as --db's value, before anything starts."""
    command = [sys.executable, "-c", "from skytotems.cli import main; main()", "serve"]
    env = {**os.environ, "SKYTOTEMS_DB": "sqlite:////no/such/dir/x.db"}
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env
    )
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "--db" in errors[0] and "/no/such/dir" in errors[0], done.stderr
    assert not (tmp_path / "skytotems.db").exists()


def test_good_environment_values_are_read() -> None:
    """The variables' values reach the settings (so the refusals above are not of all)."""
    from skytotems.server.settings import Settings

    names = {
        "SKYTOTEMS_TRUSTED_PROXIES": "10.0.0.1, 192.168.0.0/16 ::1",
        "SKYTOTEMS_HTTP_RATE": "10/second",
        "SKYTOTEMS_CREATE_RATE": "3 per minute",
        "SKYTOTEMS_MAX_BODY_BYTES": "1000",
        "SKYTOTEMS_IDLE_DAYS": "0.5",
    }
    with pytest.MonkeyPatch.context() as patch:
        for name, value in names.items():
            patch.setenv(name, value)
        settings = Settings.from_env()
    assert settings.trusted_proxies == ("10.0.0.1", "192.168.0.0/16", "::1")
    assert (settings.http_rate, settings.create_rate) == ("10/second", "3 per minute")
    assert settings.max_body_bytes == 1000
    assert settings.idle_without_clock_s == 12 * 3600


def _serve_refusal(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    """The one `Error:` line of a `serve` that exited 2 without a traceback."""
    command = [sys.executable, "-c", "from skytotems.cli import main; main()", "serve", *args]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=60, cwd=cwd, env=env or dict(os.environ)
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, done.stderr
    return errors[0]


@pytest.mark.parametrize(
    ("variable", "value", "reason"),
    [
        # int()'s and float()'s own messages used to be shown ("invalid literal for int()")
        ("SKYTOTEMS_BOT_WORKERS", "abc", "must be an integer from 1 to 256"),
        ("SKYTOTEMS_WAITING_EXPIRY_HOURS", "x", "must be a number greater than 0"),
        ("SKYTOTEMS_ANALYSIS_DETERMINIZATIONS", "many", "must be 0 (the level's) or from 2"),
    ],
)
def test_a_value_that_is_no_number_says_what_is_expected(
    variable: str, value: str, reason: str, tmp_path: Path
):
    error = _serve_refusal([], tmp_path, {**os.environ, variable: value})
    assert variable in error and reason in error and "literal" not in error, error


@pytest.mark.parametrize(
    ("host", "reason"),
    [
        ("no-such-host.invalid", "does not resolve"),
        ("192.0.2.1", "cannot listen on 192.0.2.1"),  # TEST-NET-1: no address of this machine
    ],
)
def test_an_address_the_server_cannot_listen_on_is_a_usage_error(
    host: str, reason: str, tmp_path: Path
):
    """Both used to start the app, then stop with uvicorn's log line and exit code 3."""
    error = _serve_refusal(["--host", host, "--port", "0"], tmp_path)
    assert "--host" in error and reason in error, error
    assert not (tmp_path / "skytotems.db").exists()


def test_a_port_in_use_is_a_usage_error_naming_the_port(tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        error = _serve_refusal(["--host", "127.0.0.1", "--port", str(port)], tmp_path)
    assert "--port" in error and "in use" in error, error


def test_an_option_wins_over_a_bad_value_of_its_variable() -> None:
    """A trial: `--bot-workers 1` was refused for SKYTOTEMS_BOT_WORKERS=abc, which it
    overrides."""
    from skytotems.server.settings import SettingError, Settings

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SKYTOTEMS_BOT_WORKERS", "abc")
        assert Settings.from_env(bot_workers=1).bot_workers == 1
        with pytest.raises(SettingError, match="SKYTOTEMS_BOT_WORKERS"):
            Settings.from_env()


def test_a_missing_postgresql_database_is_a_usage_error(postgres_database: str, tmp_path: Path):
    """A database the server does not have used to be a ~129-line traceback from the
    app's startup, exit 3: the server connects once before starting."""
    from sqlalchemy.engine import make_url

    missing = make_url(postgres_database).set(database="no_such_db_xyz")
    error = _serve_refusal(["--db", missing.render_as_string(hide_password=False)], tmp_path)
    assert "--db" in error and "does not exist" in error, error


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("postgresql://postgres@127.0.0.1:1/test", "refused"),  # nothing listens on port 1
        ("mysql://u@h/d", "driver is not installed"),  # mysqlclient is no dependency
    ],
)
def test_an_unusable_database_is_a_usage_error(url: str, reason: str, tmp_path: Path):
    error = _serve_refusal(["--db", url], tmp_path)
    assert "--db" in error and reason in error, error
    env = {**os.environ, "SKYTOTEMS_DB": url}
    error = _serve_refusal([], tmp_path, env)
    assert "--db" in error and "SKYTOTEMS_DB" in error and reason in error, error
