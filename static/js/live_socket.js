// The websocket of a live event page (the leaderboard, the bracket, "My event", the organizer's live round
// view, the announcement banner): opens it, hands each JSON message to the page, and after a close tries
// again with exponential back-off: 1 s doubling to 30 s, from 1 s again once a socket had opened, each
// delay between 75 % and 125 % of that so a room of phones does not reconnect in one instant after a
// server restart. Pages keep working without it: they are complete as served.
//
// Every socket of an event may carry the organizer's announcements: an `announcement` message goes to the
// window as an `announcement` event (announcements.js shows it), never to the page. An `error` message (a
// request the server refused) is logged to the console.

export const MAX_DELAY_MS = 30000;

/** The delay in ms before try number `attempt` (0, 1, 2 ...) after a close. */
export function retryDelay(attempt, random = Math.random) {
  return Math.min(MAX_DELAY_MS, 1000 * 2 ** attempt) * (0.75 + random() / 2);
}

/** The ws:// or wss:// address of `path` on this page's host. */
export function socketUrl(path, loc = window.location) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}${path}`;
}

/**
 * Keep the socket at `path` open for the page.
 * @param {string} path the socket's path, e.g. "/ws/events/<slug>/"
 * @param {object} options
 *   onOpen() each time a socket opens;
 *   onMessage(message) for each JSON object received but announcements;
 *   onWait(delayMs) after a close, before the next try in `delayMs`;
 *   finalCodes: close codes after which trying again cannot help (refused, no such page), and
 *   onFinal(code) then, with no more tries;
 *   refreshOnShow: when the page is brought back on screen (a phone waking), ask the server at once for
 *   what the page shows ({"type": "refresh"}) rather than wait for the next change.
 */
export function liveSocket(path, { onOpen = () => {}, onMessage = () => {}, onWait = () => {},
  onFinal = () => {}, finalCodes = [], refreshOnShow = false } = {}) {
  let socket = null;

  function connect(attempt) {
    try {
      socket = new WebSocket(socketUrl(path));
    } catch {
      return; // an address the browser refuses: the page stays as it was served
    }
    const current = socket;
    let opened = false;
    current.addEventListener("open", () => {
      opened = true;
      onOpen();
    });
    current.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!message || typeof message !== "object") return;
      if (message.type === "announcement") window.dispatchEvent(new CustomEvent("announcement", { detail: message }));
      else if (message.type === "error") console.warn(`${path}:`, message.error);
      else onMessage(message);
    });
    current.addEventListener("close", (event) => {
      if (finalCodes.includes(event.code)) {
        onFinal(event.code);
        return;
      }
      const next = opened ? 0 : attempt + 1;
      const delay = retryDelay(next);
      onWait(delay);
      setTimeout(() => connect(next), delay);
    });
  }

  if (refreshOnShow) {
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ type: "refresh" }));
      }
    });
  }
  connect(0);
}
