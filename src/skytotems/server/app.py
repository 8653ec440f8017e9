"""The ASGI app: HTTP for the lobby, records and API; a WebSocket per table for play.

`create_app(settings)` builds everything inside an explicit lifespan: the database is
migrated, the writer thread started, every unfinished table reloaded from its log
(its bots and clocks resume), and all of it is stopped cleanly at shutdown. Nothing
happens at import time. The OpenAPI description is served at /api/openapi.json (and
browsable at /api/docs).
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, Request
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from limits import parse as parse_rate
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from starlette.types import Receive, Scope, Send

from skytotems import view
from skytotems.bots.registry import ALIASES, OFFERED

from . import analysis_store, archive, client_address, store
from .analysis_jobs import AnalysisWorkers
from .api_docs import add_api_docs
from .archive import Archive, ReplayCache
from .autoplay import Autoplay
from .bots import BotPool
from .bus import Publisher
from .errors import ServiceError, storage_unreachable
from .http_limits import BodyTooLarge, HttpLimits
from .hub import Hub, RawSocket, serve_socket
from .hub import __doc__ as PROTOCOL_DOC
from .leases import AdvisoryLeases, LeaseKeeper, Leases, LocalLeases
from .lobby import Lobby
from .metrics import Metrics
from .puzzles import router as puzzles_router
from .readiness import Readiness
from .schemas import (
    LIMIT_RESPONSES,
    AnalysisJob,
    AnalysisLevelName,
    Bots,
    CreatedTable,
    CreateTable,
    Health,
    Joined,
    JoinTable,
    Ready,
    Refusal,
    SeatToken,
    TableList,
    TableSummary,
)
from .service import TableService
from .settings import Settings
from .table import Table

if TYPE_CHECKING:
    from .redisbus import RedisBus

DESCRIPTION = (
    "HTTP API of the Sky Totems server: create and join tables, read views, records "
    "and statistics. Play happens on the WebSocket `/ws/tables/{table_id}` (not listed "
    "below, as OpenAPI describes HTTP only):\n\n```\n" + (PROTOCOL_DOC or "") + "\n```"
)


@dataclass
class Runtime:
    """What the lifespan starts and the routes use."""

    settings: Settings
    service: TableService
    hub: Hub
    archive: Archive
    replays: ReplayCache
    readiness: Readiness
    metrics: Metrics
    lobby: Lobby
    analysis: AnalysisWorkers
    engine: Engine
    bus: RedisBus | None = None  # the bus to the other processes (with --redis)


class SkyTotemsApp(FastAPI):
    """The FastAPI app, except that table sockets go straight to the hub.

    Play is the hot path (every move arrives and leaves there), so `/ws/tables/{id}`
    skips the HTTP middleware stack: fewer layers per message and fewer objects per
    open socket for the garbage collector to walk.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            parts = scope["path"].split("/")
            if len(parts) == 4 and parts[:3] == ["", "ws", "tables"] and parts[3]:
                rt: Runtime = self.state.runtime
                ws = RawSocket(receive, send)
                limits = rt.hub.limits
                address = limits.address(scope)
                refusal = limits.admit(address)
                if refusal is not None:
                    await ws.refuse(refusal.status, refusal.body, refusal.headers)
                    return
                try:
                    await serve_socket(ws, parts[3], rt.service, rt.hub)
                finally:
                    limits.release(address)
                return
        await super().__call__(scope, receive, send)


def _runtime(request: Request) -> Runtime:
    rt: Runtime = request.app.state.runtime
    return rt


Rt = Annotated[Runtime, Depends(_runtime)]


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise ServiceError("bad_token", "use the header Authorization: Bearer <token>", 401)
    return token


def _seat_of(table: Table, token: str | None) -> int | None:
    if token is None:
        return None
    player = table.player_by_token(token)
    if player is None:
        raise ServiceError("bad_token", "this token opens no seat here", 403)
    return player


@asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[Runtime]:
    """Everything the server runs, started in order and stopped in reverse: the database
    (migrated), the writer thread, the hub, the bot workers, the table service (every
    unfinished table reloaded) and its bots and clocks. With a Redis URL, changes are
    also published to the other processes, and theirs caught up from the database."""
    engine = store.make_engine(settings.db_url, settings.sqlite_synchronous)
    await asyncio.to_thread(store.migrate, engine)
    writer = store.Writer(engine)
    writer.start(asyncio.get_running_loop())
    hub = Hub(settings)
    hub.start()
    bus = None
    publisher: Publisher = hub
    if settings.redis_url is not None:
        from .redisbus import Fanout, RedisBus  # redis is loaded only when it is used

        bus = publisher = RedisBus(settings.redis_url, settings.redis_channel, hub)
    bots = BotPool(settings.bot_workers)
    # one process alone on SQLite drives every table; on PostgreSQL, leases say which
    leases: Leases = (
        AdvisoryLeases(engine) if engine.dialect.name == "postgresql" else LocalLeases()
    )
    service = TableService(settings, engine, writer, publisher, leases, local=hub)
    metrics = service.metrics = serve_metrics(service, hub, writer, bots)
    # the database is always checked, and Redis too when this process uses it
    readiness = Readiness(engine)
    autoplay = Autoplay(service, bots)
    keeper = LeaseKeeper(leases, service, settings.lease_poll_s)
    analysis = AnalysisWorkers(settings, engine, service)
    if bus is not None:
        bus.start(Fanout(service))
        readiness.watch("redis", bus)
    try:
        await keeper.tick()  # the tables nobody drives are adopted before the sweeps
        await service.start()
        keeper.start()
        analysis.start()
        yield Runtime(
            settings,
            service,
            hub,
            Archive(engine),
            ReplayCache(settings.replay_cache_size),
            readiness,
            metrics,
            Lobby(engine, service.tables),
            analysis,
            engine,
            bus,
        )
    finally:
        await analysis.close()
        await keeper.close()
        await autoplay.close()
        await service.close()
        if bus is not None:
            await bus.close()
        await hub.close()
        await asyncio.to_thread(writer.stop)
        bots.shutdown()
        engine.dispose()


def serve_metrics(service: TableService, hub: Hub, writer: store.Writer, bots: BotPool) -> Metrics:
    """The process's metrics: moves from the service, gauges read when scraped."""
    metrics = Metrics()
    tables = service.tables
    metrics.sample(
        {
            "skytotems_sockets": ("Open table sockets.", lambda: hub.connections),
            "skytotems_tables_open": (
                "Open tables (waiting or playing) in memory.",
                lambda: len(tables.active),
            ),
            "skytotems_tables_closed": (
                "Closed tables (finished or expired) kept in memory.",
                lambda: len(tables.finished),
            ),
            "skytotems_bot_moves_pending": (
                "Bot moves asked for and not yet played (the bot queue).",
                lambda: sum(len(t.bot_tasks) for t in tables.active.values()),
            ),
            "skytotems_bot_moves_queued": (
                "Bot moves waiting for a free bot worker (the fair queue across tables).",
                lambda: bots.queued,
            ),
            "skytotems_bot_workers_busy": (
                "Bot workers computing a move now (at most the bot workers setting).",
                lambda: bots.busy,
            ),
            "skytotems_writes_queued": (
                "Writes waiting for the next group commit.",
                lambda: writer.backlog,
            ),
        }
    )
    return metrics


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server app for `settings` (defaults: SQLite file skytotems.db here)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with running(settings) as runtime:
            app.state.runtime = runtime
            # what exists now lives as long as the server: keep it out of every later
            # full garbage collection (the cost of those grows with what they walk)
            gc.collect()
            gc.freeze()
            yield

    app = SkyTotemsApp(
        title="Sky Totems server",
        version="1",
        description=DESCRIPTION,
        lifespan=lifespan,
        openapi_url="/api/openapi.json",
        docs_url=None,  # served by add_api_docs, with assets from the package
        redoc_url=None,
        responses=LIMIT_RESPONSES,  # every route may answer 413 and 429 (HttpLimits)
    )
    add_api_docs(app, app.title)
    app.add_middleware(HttpLimits, settings=settings)

    @app.exception_handler(BodyTooLarge)
    async def body_too_large(_request: Request, exc: BodyTooLarge) -> JSONResponse:
        return JSONResponse({"code": "too_large", "message": exc.detail}, status_code=413)

    @app.exception_handler(OperationalError)
    async def database_unreachable(_request: Request, _exc: OperationalError) -> JSONResponse:
        refusal = storage_unreachable()
        body = {"code": refusal.code, "message": refusal.message}
        return JSONResponse(body, status_code=refusal.status)

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status)

    @app.get("/api/health", response_model=Health, tags=["server"])
    async def health(rt: Rt) -> dict[str, Any]:
        return {
            "status": "ok",
            "tables_in_memory": len(rt.service.tables),
            "connections": rt.hub.connections,
        }

    @app.get(
        "/api/ready",
        response_model=Ready,
        responses={503: {"model": Ready, "description": "A dependency is unreachable"}},
        tags=["server"],
    )
    async def ready(rt: Rt) -> Any:
        """Readiness: 200 when the database (and Redis, when used) answer; 503 with the
        reason while one does not (take this process out of the load balancer)."""
        checks = await rt.readiness.check()
        failing = [f"{name} {state}" for name, state in checks.items() if state != "ok"]
        body = {"status": "unready" if failing else "ready", "checks": checks}
        if failing:
            return JSONResponse(dict(body, reason="; ".join(failing)), status_code=503)
        return body

    @app.get(
        "/metrics",
        response_class=Response,
        responses={200: {"content": {CONTENT_TYPE_LATEST: {"schema": {"type": "string"}}}}},
        tags=["server"],
    )
    async def metrics(rt: Rt) -> Response:
        """This process's Prometheus metrics (text exposition format); scrape every
        process on its own."""
        return Response(generate_latest(rt.metrics.registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/api/bots", response_model=Bots, tags=["server"])
    async def bots() -> dict[str, Any]:
        """The bot levels to offer, from the bot registry (the lobby builds its list here)."""
        return {"levels": list(OFFERED), "aliases": dict(ALIASES)}

    @app.post("/api/tables", response_model=CreatedTable, status_code=201, tags=["tables"])
    async def create_table(body: CreateTable, rt: Rt) -> dict[str, Any]:
        """Create a table. Each human seat gets a secret token: its invite link."""
        table, tokens = await rt.service.create(
            body.options.model_dump(),
            [s.model_dump() for s in body.seats],
            body.clock,
            listed=body.listed,
        )
        return {
            "table": table.summary(),
            "tokens": [SeatToken(player=p, token=t) for p, t in tokens],
        }

    @app.get("/api/tables", response_model=TableList, tags=["tables"])
    async def lobby(
        rt: Rt, status: Literal["open", "finished"] = "open", limit: int = 50
    ) -> dict[str, Any]:
        """Tables by status: open (waiting or playing) or finished (records), newest
        first, as stored in the database (the same on every process)."""
        limit = max(1, min(limit, 200))
        if status == "finished":
            return {"tables": await rt.archive.finished(limit)}
        # listed tables only: a private game's players find it through their tokens
        return {"tables": await rt.lobby.open_tables(limit)}

    @app.get("/api/tables/{table_id}", response_model=TableSummary, tags=["tables"])
    async def table_summary(table_id: str, rt: Rt) -> dict[str, Any]:
        return (await rt.service.committed(table_id)).summary()

    @app.post("/api/tables/{table_id}/join", response_model=Joined, tags=["tables"])
    async def join_table(table_id: str, body: JoinTable, rt: Rt) -> dict[str, Any]:
        """Take the first open seat of a table; the token returned opens that seat."""
        table, player, token = await rt.service.join(table_id, body.name)
        return {"table": table.summary(), "player": player, "token": token}

    @app.post("/api/tables/{table_id}/cancel", response_model=TableSummary, tags=["tables"])
    async def cancel_table(
        table_id: str, rt: Rt, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Close a table still waiting for players (Bearer token of a seated player)."""
        table = await rt.service.get(table_id)
        player = _seat_of(table, _bearer(authorization))
        if player is None:
            raise ServiceError("bad_token", "only a seated player may cancel a table", 401)
        await rt.service.cancel(table, player)
        return table.summary()

    @app.get("/api/tables/{table_id}/view", tags=["tables"])
    async def table_view(
        table_id: str, rt: Rt, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The view of the token's seat (no token: the spectator's), with `seq`."""
        table = await rt.service.committed(table_id)
        player = _seat_of(table, _bearer(authorization))
        return {
            "seq": table.seq,
            "player": player,
            "view": view(table.game, table.view_seat(player)),
        }

    @app.get("/api/tables/{table_id}/record", tags=["records"])
    async def table_record(table_id: str, rt: Rt, response: Response) -> dict[str, Any]:
        """The engine's JSON record (with the seed): only once the game is over. A download
        (`skytotems-ID.json`): the browser saves it for `skytotems analyse`."""
        record = archive.record(await rt.service.committed(table_id))
        # table ids are URL-safe base64 (secrets.token_urlsafe): nothing to quote
        response.headers["Content-Disposition"] = (
            f'attachment; filename="skytotems-{table_id}.json"'
        )
        return record

    @app.get("/api/tables/{table_id}/replay/{move}", tags=["records"])
    async def table_replay(table_id: str, move: int, rt: Rt) -> dict[str, Any]:
        """A finished game after `move` effective actions: {move, moves, action, events,
        view} (the spectator's view; events filtered likewise)."""
        return await rt.replays.step(await rt.service.committed(table_id), move)

    @app.get("/api/tables/{table_id}/stats", tags=["records"])
    async def table_stats(table_id: str, rt: Rt) -> dict[str, Any]:
        """Per player: totems by kind, pedestals, clouds, cards, points by source."""
        table = await rt.service.committed(table_id)
        return {"table": table.summary(), "players": archive.stats(table)}

    analysis_rate = parse_rate(settings.analysis_rate)
    trusted = client_address.trusted_networks(settings.trusted_proxies)
    job_responses: dict[int | str, dict[str, Any]] = {
        200: {"description": "The job was there already (queued, running, done or failed)"},
        202: {"model": AnalysisJob, "description": "The job was queued now"},
        404: {"model": Refusal, "description": "No table has this id (`not_found`)"},
        409: {"model": Refusal, "description": "The game is not finished (`not_finished`)"},
        429: {
            **LIMIT_RESPONSES[429],
            "description": "Too many requests from this client address, or too many new "
            "analysis jobs (`analysis_rate`) (`rate_limited`); nothing was queued.",
        },
    }

    @app.post(
        "/api/tables/{table_id}/analysis",
        response_model=AnalysisJob,
        responses=job_responses,
        tags=["records"],
    )
    async def ask_analysis(
        table_id: str, request: Request, rt: Rt, level: AnalysisLevelName | None = None
    ) -> Any:
        """Queue the post-game analysis of a finished table (docs/analysis.md), or get its
        job if someone asked already: one job per table and level, computed once and
        kept. Anyone may ask (the record is public once the game is over); each client
        address may queue `analysis_rate` new jobs (429 with Retry-After beyond)."""
        table = await rt.service.committed(table_id)
        archive.require_finished(table, "a game is analysed once it is over")
        who = analysis_store.requester(client_address.of_scope(request.scope, trusted))
        window_ms = int(analysis_rate.get_expiry() * 1000)
        asked = await asyncio.to_thread(
            analysis_store.ask,
            rt.engine,
            table_id,
            level or settings.analysis_level,
            who,
            analysis_rate.amount,
            window_ms,
        )
        if asked.job is None:
            retry = asked.retry_after_s
            body = {
                "code": "rate_limited",
                "message": f"too many analyses asked for from your address "
                f"({settings.analysis_rate}); retry in {retry} s",
            }
            return JSONResponse(body, status_code=429, headers={"Retry-After": str(retry)})
        if asked.created:
            rt.analysis.wake()
        job = analysis_store.public(asked.job)
        return JSONResponse(job, status_code=202) if asked.created else job

    @app.get(
        "/api/tables/{table_id}/analysis",
        response_model=AnalysisJob,
        responses={404: job_responses[404]},
        tags=["records"],
    )
    async def get_analysis(
        table_id: str, rt: Rt, level: AnalysisLevelName | None = None
    ) -> dict[str, Any]:
        """The analysis job of a table at a level: its progress, then its result; status
        "none" while nobody has asked for it (POST queues it)."""
        chosen = level or settings.analysis_level

        def read() -> dict[str, Any] | None:
            with rt.engine.connect() as conn:
                return analysis_store.get(conn, table_id, chosen)

        row = await asyncio.to_thread(read)
        if row is None:
            await rt.service.committed(table_id)  # 404 for a table that does not exist
            return analysis_store.nobody_asked(table_id, chosen)
        return analysis_store.public(row)

    app.include_router(puzzles_router)

    if settings.static_dir is not None and settings.static_dir.is_dir():
        app.mount("/", StaticFiles(directory=settings.static_dir, html=True), name="web")
    return app
