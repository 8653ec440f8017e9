"""`python -m skytotems.server` = `skytotems serve` (used by the tests and the benchmark)."""

from skytotems.command_line import run
from skytotems.server.command import serve

if __name__ == "__main__":
    run(serve)
