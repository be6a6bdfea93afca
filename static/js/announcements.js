// The event's announcements as a banner (#announcement). Scripts that hold a socket of the event or the
// table (the table, the live leaderboard, the live bracket, "My event") hand each `announcement` message
// on as a window event; on an event page with no such socket this script opens the event's socket itself
// with live_socket.js, which hands announcements on the same way. This is a classic script (the table's
// page loads it so): that module is imported only then, from this script's own folder.
(() => {
  if (window.announcementsReady) return;
  window.announcementsReady = true;
  const here = document.currentScript.src;

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

  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("announcement");
    if (!box || !box.dataset.announceUrl || !("WebSocket" in window)) return;
    const held = document.querySelector("[data-live-url], #table[data-ws-path]") !== null;
    if (!held) import(new URL("live_socket.js", here)).then(({ liveSocket }) => liveSocket(box.dataset.announceUrl));
  });
})();
