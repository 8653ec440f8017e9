// What this browser remembers: the seat tokens it holds (its invite links), the tokens
// of tables it created (to show their invite links again), and the player's name.

const SEATS = "skytotems.seats";
const CREATED = "skytotems.created";
const NAME = "skytotems.name";

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}");
  } catch {
    return {};
  }
}

function write(key, value) {
  localStorage.setItem(key, JSON.stringify(value));
}

/** The token of my seat at `tableId`, or null (then I watch as a spectator). */
export function seatToken(tableId) {
  return read(SEATS)[tableId]?.token || null;
}

/** The player I was at `tableId` (its index in the table's seats), or null. */
export function rememberedPlayer(tableId) {
  const player = read(SEATS)[tableId]?.player;
  return typeof player === "number" ? player : null;
}

export function rememberSeat(tableId, player, token) {
  const seats = read(SEATS);
  seats[tableId] = { player, token, at: Date.now() };
  // keep the 100 most recent
  const ids = Object.keys(seats).sort((a, b) => seats[b].at - seats[a].at);
  for (const id of ids.slice(100)) delete seats[id];
  write(SEATS, seats);
}

export function mySeats() {
  return read(SEATS);
}

export function rememberCreated(tableId, tokens) {
  const created = read(CREATED);
  created[tableId] = { tokens, at: Date.now() };
  const ids = Object.keys(created).sort((a, b) => created[b].at - created[a].at);
  for (const id of ids.slice(50)) delete created[id];
  write(CREATED, created);
}

/** Tokens of every seat of a table this browser created ([{player, token}]) or null. */
export function createdTokens(tableId) {
  return read(CREATED)[tableId]?.tokens || null;
}

export function myName() {
  return localStorage.getItem(NAME) || "";
}

export function setMyName(name) {
  localStorage.setItem(NAME, name);
}

/** The link that opens seat `token` of `tableId` (the token travels in the fragment,
 * so it is never sent to the server in a request line or a log). */
export function inviteLink(tableId, token) {
  const url = new URL("table.html", location.href);
  url.search = `?t=${encodeURIComponent(tableId)}`;
  url.hash = token ? `seat=${encodeURIComponent(token)}` : "";
  return url.href;
}
