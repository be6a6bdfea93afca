// The event's announcements as a banner (#announcement). Scripts that hold a socket of the event or the
// table (the table, the live leaderboard, the live bracket) hand each `announcement` message on as a
// window event; on an event page with no such socket this script opens the event's socket itself.
(() => {
  if (window.announcementsReady) return;
  window.announcementsReady = true;

  function show(message) {
    const box = document.getElementById("announcement");
    if (!box || !message || typeof message.text !== "string" || !message.text) return;
    const at = message.at ? new Date(message.at) : null;
    const time = box.querySelector(".announcement-time");
    const text = box.querySelector(".announcement-text");
    if (time) time.textContent = at && !Number.isNaN(at.getTime()) ? at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
    if (text) text.textContent = message.text;
    box.hidden = false;
  }
  window.addEventListener("announcement", (event) => show(event.detail));

  function ownSocket(url, attempt = 0) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${url}`);
    socket.addEventListener("message", (event) => {
      try {
        const message = JSON.parse(event.data);
        if (message.type === "announcement") show(message);
      } catch {
        /* not JSON: ignored */
      }
    });
    socket.addEventListener("close", () => {
      setTimeout(() => ownSocket(url, attempt + 1), Math.min(30000, 1000 * 2 ** attempt));
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("announcement");
    if (!box || !box.dataset.announceUrl || !("WebSocket" in window)) return;
    const held = document.querySelector("[data-live-url], #table[data-ws-path]") !== null;
    if (!held) ownSocket(box.dataset.announceUrl);
  });
})();
