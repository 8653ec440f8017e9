// All transport with the server lives here: the HTTP API (/api/...) and the table's
// WebSocket (/ws/tables/{id}). The rest of the browser code only sees plain objects:
// table summaries, views (skytotems.view JSON), events, and the callbacks below.
// Protocol: src/skytotems/server/hub.py (docstring) and app.py.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", String(err));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const code = (data && (data.code || (data.detail && "malformed"))) || `http_${response.status}`;
    const message = data && (data.message || JSON.stringify(data.detail));
    const error = new ApiError(response.status, code, message);
    error.retryAfter = response.headers.get("Retry-After");
    throw error;
  }
  return data;
}

const enc = encodeURIComponent;
// an analysis level (fast, greedy, thorough) as a query, none: the server's default
const levelQuery = (level) => (level ? `?level=${enc(level)}` : "");

export const api = {
  /** GET /api/bots -> {levels:[name], aliases:{old: name}} (the bot registry) */
  bots: () => request("GET", "/api/bots"),
  /** POST /api/tables {options, seats, clock} -> {table, tokens:[{player, token}]} */
  createTable: (body) => request("POST", "/api/tables", { body }),
  /** GET /api/tables?status=open|finished -> {tables:[summary]} */
  listTables: (status = "open", limit = 50) =>
    request("GET", `/api/tables?status=${enc(status)}&limit=${limit}`),
  /** GET /api/tables/{id} -> summary */
  table: (id) => request("GET", `/api/tables/${enc(id)}`),
  /** POST /api/tables/{id}/join {name} -> {table, player, token} */
  join: (id, name) => request("POST", `/api/tables/${enc(id)}/join`, { body: { name } }),
  /** POST /api/tables/{id}/cancel (Bearer token of a seated player) -> summary */
  cancel: (id, token) => request("POST", `/api/tables/${enc(id)}/cancel`, { token }),
  /** GET /api/tables/{id}/view (Bearer token: that seat; none: spectator) -> {seq, player, view} */
  view: (id, token) => request("GET", `/api/tables/${enc(id)}/view`, { token }),
  /** GET /api/tables/{id}/stats -> {table, players:[...]} (finished games only) */
  stats: (id) => request("GET", `/api/tables/${enc(id)}/stats`),
  /** GET /api/tables/{id}/record -> the engine's record (finished games only) */
  record: (id) => request("GET", `/api/tables/${enc(id)}/record`),
  /** GET /api/tables/{id}/replay/{move} -> {move, moves, action, events, view}
   *  (finished games only; see docs/web-needs.md) */
  replayStep: (id, move) => request("GET", `/api/tables/${enc(id)}/replay/${move}`),
  /** POST /api/tables/{id}/analysis -> the analysis job, queued now or already there
   *  (finished games only; 429 with Retry-After: too many new jobs from this address) */
  analyse: (id, level) => request("POST", `/api/tables/${enc(id)}/analysis${levelQuery(level)}`),
  /** GET /api/tables/{id}/analysis -> {status, done, total, decisions, result}
   *  (status "none": nobody asked yet) */
  analysis: (id, level) => request("GET", `/api/tables/${enc(id)}/analysis${levelQuery(level)}`),
  /** GET /api/puzzles -> {puzzles:[{id, question, text, level, length}]} */
  puzzles: () => request("GET", "/api/puzzles"),
  /** GET /api/puzzles/{id} -> {id, question, level, seat, altars, view} */
  puzzle: (id) => request("GET", `/api/puzzles/${enc(id)}`),
  /** POST /api/puzzles/{id}/check {moves} -> {correct, solved, finished, points, view, ...} */
  checkPuzzle: (id, moves) => request("POST", `/api/puzzles/${enc(id)}/check`, { body: { moves } }),
  /** POST /api/puzzles/{id}/hint {moves} -> {action} (null: start again) */
  puzzleHint: (id, moves) => request("POST", `/api/puzzles/${enc(id)}/hint`, { body: { moves } }),
};

/**
 * One table's live connection. Callbacks:
 *   onWelcome({table, player, seats, deck})
 *   onState({seq, status, player, view, events, clocks, undo, reset, ack})
 *   onChat({id, at_ms, player, channel, name, text})  (welcome carries the history)
 *   onError({code, message, id})
 *   onConnection(status)  "connecting" | "open" | "closed"
 * It reconnects by itself and resumes from the last seq it saw.
 */
export class TableSocket {
  constructor(tableId, token, callbacks) {
    this.tableId = tableId;
    this.token = token || null;
    this.callbacks = callbacks;
    this.seq = null;
    this.nextId = 1;
    this.ws = null;
    this.closedByUs = false;
    this.retryDelay = 500;
    this.pingTimer = null;
  }

  connect() {
    this.closedByUs = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/tables/${enc(this.tableId)}`;
    this.callbacks.onConnection?.("connecting");
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retryDelay = 500;
      ws.send(JSON.stringify({ type: "hello", token: this.token, seq: this.seq }));
      this.callbacks.onConnection?.("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping", id: "keepalive" }), 25000);
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.callbacks.onConnection?.("closed");
      // 4403 (bad token) and 4404 (no such table) will not get better by retrying
      if (this.closedByUs || event.code === 4403 || event.code === 4404) return;
      setTimeout(() => this.connect(), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, 8000);
    });
  }

  close() {
    this.closedByUs = true;
    clearInterval(this.pingTimer);
    this.ws?.close();
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    switch (message.type) {
      case "welcome":
        this.callbacks.onWelcome?.(message);
        break;
      case "state":
        this.seq = message.seq;
        this.callbacks.onState?.(message);
        break;
      case "chat":
        this.callbacks.onChat?.(message.message, message.ack);
        break;
      case "error":
        this.callbacks.onError?.(message);
        break;
      default:
        break; // pong, done
    }
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Play an engine action (wire format) on the last state seen; returns its id, or
   * null when the socket is not open (nothing was sent). */
  act(action) {
    const id = this.nextId++;
    return this.send({ type: "act", id, seq: this.seq ?? 0, action }) ? id : null;
  }

  /** Undo the last action ("last") or back to the start of the turn ("turn"). */
  undo(to = "last") {
    const id = this.nextId++;
    this.send({ type: "undo", id, seq: this.seq ?? 0, to });
    return id;
  }

  /** Say `text` at the table (a spectator under `name`); null when offline. */
  chat(text, name = null) {
    const id = this.nextId++;
    return this.send({ type: "chat", id, text, name }) ? id : null;
  }

  /** Ask a bot to play a player whose clock ran out. */
  takeover(player) {
    const id = this.nextId++;
    this.send({ type: "takeover", id, player });
    return id;
  }
}
