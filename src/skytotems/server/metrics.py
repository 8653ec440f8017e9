"""Prometheus metrics of one server process, served at `/metrics` (official client library).

Each process has its own registry and serves its own figures: with several processes,
Prometheus scrapes every instance and sums them (docs/deploy.md). Moves are counted and
timed by the table service as they are committed and published (`ServiceMetrics`); the
gauges (sockets, tables in memory, pending bot moves, queued writes) are read from the
running server when scraped, so they cost nothing between scrapes. `leases_held` is set
through `service.metrics.leases(n)` by whatever holds table leases (0 while none does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

# from a fast commit on a quiet server to a slow one under load (seconds)
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class ServiceMetrics(Protocol):
    """What the table service reports: moves and leases (`NO_METRICS` when nobody listens)."""

    def moved(self, seconds: float, by_bot: bool) -> None:
        """A move was committed and published, `seconds` after it arrived."""

    def refused(self, code: str) -> None:
        """A player's move was refused with `code` (stale, storage, an illegal action...)."""

    def leases(self, held: int) -> None:
        """This process now holds `held` table leases (drives their bots and clocks)."""


class _NoMetrics:
    def moved(self, seconds: float, by_bot: bool) -> None:
        pass

    def refused(self, code: str) -> None:
        pass

    def leases(self, held: int) -> None:
        pass


NO_METRICS: ServiceMetrics = _NoMetrics()


class Sampled(Collector):
    """Gauges read from the running server at scrape time."""

    def __init__(self, gauges: dict[str, tuple[str, Callable[[], float]]]) -> None:
        self.gauges = gauges

    def collect(self) -> Iterator[Metric]:
        for name, (documentation, read) in self.gauges.items():
            yield GaugeMetricFamily(name, documentation, value=read())


class Metrics:
    """The instruments of one server process and the registry they are served from."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.moves = Counter(
            "skytotems_moves",
            "Moves committed and published (acknowledged), by who made them.",
            ["by"],
            registry=self.registry,
        )
        self.move_seconds = Histogram(
            "skytotems_move_seconds",
            "Time from a move's arrival to its publication (lock, checks, commit, fan-out).",
            buckets=MOVE_BUCKETS,
            registry=self.registry,
        )
        self.refusals = Counter(
            "skytotems_moves_refused",
            "Moves of players refused, by error code (storage: the database was unusable).",
            ["code"],
            registry=self.registry,
        )
        self.leases_held = Gauge(
            "skytotems_leases_held",
            "Tables whose bots and clocks this process drives (its leases).",
            registry=self.registry,
        )
        self._by = {True: self.moves.labels(by="bot"), False: self.moves.labels(by="human")}

    def moved(self, seconds: float, by_bot: bool) -> None:
        self._by[by_bot].inc()
        self.move_seconds.observe(seconds)

    def refused(self, code: str) -> None:
        self.refusals.labels(code=code).inc()

    def leases(self, held: int) -> None:
        self.leases_held.set(held)

    def sample(self, gauges: dict[str, tuple[str, Callable[[], float]]]) -> None:
        """Serve `gauges` (name: (help, read)), each read when scraped."""
        self.registry.register(Sampled(gauges))
