"""`python -m skytotems.server` = `skytotems serve` (used by the tests and the benchmark)."""

from skytotems.cli.serve import serve

if __name__ == "__main__":
    serve()
