// A websocket that comes back by itself: after a close it waits an exponentially growing, jittered
// delay (so a whole room of phones does not reconnect in the same instant after a server restart),
// pings while open, and treats a long silence as a dead connection (mobile networks drop sockets
// without closing them).

export function backoffDelay(attempt, { minMs = 500, maxMs = 15000, random = Math.random } = {}) {
  // "Equal jitter": half the capped exponential delay is fixed, the other half random.
  const cap = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 16));
  return Math.round(cap / 2 + random() * (cap / 2));
}

export function socketUrl(path, loc = window.location) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}${path}`;
}

/** Close codes of the table socket (docs/protocol.md) after which trying again cannot help. */
export const FINAL_CLOSE_CODES = [4403, 4404];

/** What to tell a person about a close: the server's own reason for its codes, else what we know. */
export function closeMessage({ code, reason, opened }) {
  const why = reason ? `: ${reason}` : "";
  switch (code) {
    case 4413:
      return `The server closed the connection because a message was too large${why}.`;
    case 4429:
      return `The server closed the connection because this page sent too many messages${why}.`;
    case 4430:
      return `The server refused the connection: too many connections from this account or network${why}. Trying again shortly.`;
    case 4403:
      return "You may not open this table.";
    case 4404:
      return "This table does not exist any more.";
    case 1000:
    case 1001:
      return opened ? "The server closed the connection (it may be restarting)." : "Cannot reach the table.";
    default:
      if (code >= 1002 && code !== 1005 && code !== 1006 && code !== 1015) {
        return `The server closed the connection (code ${code}${why}).`;
      }
      return opened ? "The connection was lost." : "Cannot reach the table.";
  }
}

export class ReconnectingSocket {
  /**
   * @param {string} url ws:// or wss:// address
   * @param {object} handlers onOpen(reconnected), onMessage(object), onStatus(status, detail)
   *   where status is "connecting", "open", "waiting" (detail: ms until the next try) or "closed";
   *   onClose({code, reason, opened, failures}) for every close (failures: closes in a row without
   *   ever opening). After a close with a code in `finalCodes` it stops trying.
   */
  constructor(url, { onOpen = () => {}, onMessage = () => {}, onStatus = () => {}, onClose = () => {},
    pingMs = 20000, silenceMs = 50000, minMs = 500, maxMs = 15000, finalCodes = FINAL_CLOSE_CODES } = {}) {
    Object.assign(this, { url, onOpen, onMessage, onStatus, onClose, pingMs, silenceMs, minMs, maxMs, finalCodes });
    this.failures = 0;
    this.attempt = 0;
    this.opened = 0;
    this.ws = null;
    this.stopped = false;
    this.timers = { retry: null, ping: null };
    this.lastHeard = 0;
  }

  start() {
    this.stopped = false;
    this.connect();
    // Phones freeze background tabs; when the page is shown again, reconnect at once if needed.
    this.onVisible = () => {
      if (document.visibilityState === "visible" && !this.isOpen() && !this.stopped) this.retryNow();
    };
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onVisible);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timers.retry);
    clearInterval(this.timers.ping);
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onVisible);
    if (this.ws) this.ws.close(1000, "leaving");
    this.onStatus("closed");
  }

  isOpen() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  send(message) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  retryNow() {
    clearTimeout(this.timers.retry);
    this.attempt = 0;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    if (this.ws && this.ws.readyState <= WebSocket.OPEN) return;
    this.onStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    let opened = false;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      opened = true;
      this.failures = 0;
      this.attempt = 0;
      this.lastHeard = Date.now();
      this.opened += 1;
      this.onStatus("open");
      clearInterval(this.timers.ping);
      this.timers.ping = setInterval(() => this.keepAlive(), this.pingMs);
      this.onOpen(this.opened > 1);
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message && typeof message === "object") this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return;
      clearInterval(this.timers.ping);
      this.ws = null;
      if (!opened) this.failures += 1;
      const final = this.finalCodes.includes(event.code);
      if (final) this.stopped = true;
      this.onClose({ code: event.code, reason: event.reason || "", opened, failures: this.failures, final });
      if (final) this.onStatus("closed", { code: event.code });
      else if (!this.stopped) this.scheduleRetry();
    });
  }

  keepAlive() {
    if (!this.isOpen()) return;
    if (Date.now() - this.lastHeard > this.silenceMs) {
      // Nothing heard for too long, not even pongs: assume the network dropped us.
      const ws = this.ws;
      this.ws = null;
      ws.close();
      this.scheduleRetry();
      return;
    }
    this.send({ type: "ping", echo: Date.now() });
  }

  scheduleRetry() {
    clearTimeout(this.timers.retry);
    const delay = backoffDelay(this.attempt, { minMs: this.minMs, maxMs: this.maxMs });
    this.attempt += 1;
    this.onStatus("waiting", delay);
    this.timers.retry = setTimeout(() => this.connect(), delay);
  }
}
