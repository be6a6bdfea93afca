// The table protocol (docs/protocol.md) on the client side: keeps the last version seen, asks for a
// full `state` on a gap or after a reconnect, numbers moves with the version they were made on and an
// id, and tells the page what changed. It knows nothing about the DOM.

let moveCounter = 0;

export function newMoveId() {
  moveCounter += 1;
  return `m-${moveCounter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** An engine action dict made ready to send: without `seat` (the server fills it) and null fields. */
export function wireAction(action) {
  const out = {};
  for (const [key, value] of Object.entries(action)) {
    if (key !== "seat" && value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

/** The seat in the current hand: differs from the game seat once a game eliminates players. */
function handSeatOf(message) {
  if (message.hand_seat !== undefined) return message.hand_seat;
  return message.seat ?? null;
}

/** Server clock minus ours (ms), from the message's `now`, so the countdown is right on a wrong clock. */
function clockOffset(message) {
  const now = Date.parse(message.now || "");
  return Number.isFinite(now) ? now - Date.now() : 0;
}

/**
 * `held` with an update's changed `fields`: each replaces the field of its name, except an object for a
 * field that holds a list, whose entries replace the list's items at those indexes.
 */
export function mergeFields(held, fields) {
  const out = { ...held, ...fields };
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(held[key]) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      out[key] = held[key].slice();
      for (const [index, item] of Object.entries(value)) out[key][Number(index)] = item;
    }
  }
  return out;
}

/**
 * What an `update` changes in the model: an update carries only what moved since the previous version
 * (docs/protocol.md, "Updates are changes"): the view's and the game's fields that changed, merged into
 * the ones held (`view: null`: no hand); `hand_seat` and `deadline` (with `now`) when they changed. The
 * presence marked on the seats stays until a `presence` frame or new seats replace it.
 */
export function mergeUpdate(model, message) {
  const out = { version: message.version };
  if ("hand_seat" in message) out.handSeat = message.hand_seat;
  if ("view" in message) out.view = message.view === null ? null : mergeFields(model.view || {}, message.view);
  if ("game" in message) out.game = mergeFields(model.game || {}, message.game);
  if ("deadline" in message) out.deadline = message.deadline;
  if (message.now) out.clockOffset = clockOffset(message);
  return out;
}

export class TableClient {
  /**
   * @param {object} hooks
   *   send(message) -> bool: sends over the socket
   *   onState(model, {events, full}): the model changed (full: a whole `state` replaced it)
   *   onError(error): an `error` message for a person
   *   onNotice(notice): a message that only informs (`seat_shared`)
   *   onBusy(busy): a move is waiting for its answer
   */
  constructor({ send, onState = () => {}, onError = () => {}, onNotice = () => {}, onBusy = () => {} }) {
    Object.assign(this, { send, onState, onError, onNotice, onBusy });
    this.model = null;
    this.version = null;
    this.pending = null; // {id, timer}
    this.syncRequested = false;
  }

  connected(reconnected) {
    // The server sends a `state` on connect; after a reconnect we ask as well, as the protocol says.
    if (reconnected) this.requestSync();
  }

  requestSync() {
    if (this.syncRequested) return;
    this.syncRequested = true;
    this.send({ type: "sync" });
  }

  handle(message) {
    switch (message.type) {
      case "state":
        return this.onFullState(message);
      case "update":
        return this.onUpdate(message);
      case "ack":
        if (this.pending && message.id === this.pending.id) this.settle();
        return undefined;
      case "presence":
        return this.onPresence(message);
      case "announcement": // the organizer's, shown by static/js/announcements.js
        window.dispatchEvent(new CustomEvent("announcement", { detail: message }));
        return undefined;
      case "seat_shared": // your bot already plays this seat through its token: said once, nothing to do
        return this.onNotice(message);
      case "error":
        if (!this.pending || !message.id || message.id === this.pending.id) this.settle();
        if (message.code === "stale") this.syncRequested = true; // a `state` follows
        return this.onError(message);
      default:
        return undefined; // pong and anything newer than this page
    }
  }

  onFullState(message) {
    this.syncRequested = false;
    this.version = message.version;
    this.model = {
      version: message.version,
      role: message.role,
      seat: message.seat ?? null, // the game seat
      handSeat: handSeatOf(message),
      view: message.view || null,
      game: message.game || {},
      deadline: message.deadline || null,
      clockOffset: clockOffset(message),
      log: Array.isArray(message.log) ? message.log : [],
    };
    this.settle();
    this.onState(this.model, { events: [], full: true });
  }

  onUpdate(message) {
    if (this.version === null || this.model === null) {
      this.requestSync();
      return;
    }
    if (message.version <= this.version) return; // already seen (e.g. replayed after a reconnect)
    if (message.version !== this.version + 1) {
      // A gap: something was missed; the full state says where we are.
      this.requestSync();
      return;
    }
    this.version = message.version;
    const events = Array.isArray(message.events) ? message.events : [];
    Object.assign(this.model, mergeUpdate(this.model, message));
    this.onState(this.model, { events, full: false, by: message.by || null });
  }

  onPresence(message) {
    const seats = this.model && this.model.game && this.model.game.seats;
    if (!seats || !Array.isArray(message.connected)) return;
    for (const seat of seats) seat.connected = message.connected.includes(seat.seat);
    this.onState(this.model, { events: [], full: false, by: null });
  }

  /** Send a move (an engine action dict); false if one is already on its way or the socket is down. */
  move(action) {
    if (this.pending || this.version === null) return false;
    const id = newMoveId();
    const sent = this.send({ type: "move", version: this.version, id, action: wireAction(action) });
    if (!sent) {
      this.onError({ code: "offline", message: "Not connected: reconnecting, try again in a moment." });
      return false;
    }
    // If no answer comes (a dropped socket), free the buttons again after a while.
    this.pending = { id, timer: setTimeout(() => this.settle(), 8000) };
    this.onBusy(true);
    return true;
  }

  settle() {
    if (!this.pending) return;
    clearTimeout(this.pending.timer);
    this.pending = null;
    this.onBusy(false);
  }
}
