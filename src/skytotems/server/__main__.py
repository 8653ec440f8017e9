"""`python -m skytotems.server` = `skytotems serve` (used by the tests and the benchmark)."""

from skytotems.server.command import serve

if __name__ == "__main__":
    serve()
