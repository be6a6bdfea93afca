// The organizer's live round view: the socket sends the tables rendered on every change (at most once a
// second); typed reasons and chosen replacements survive the swap. "Last move" counts up here. The socket
// reconnects by itself (live_socket.js) unless the server refused it (4403: not an organizer of the event).

import { liveSocket } from "./live_socket.js";

const box = document.getElementById("live-tables");
const status = document.getElementById("live-status");

function since(text) {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(text)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s ago` : `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
}

function tick() {
  for (const el of box.querySelectorAll(".since[data-since]")) el.textContent = since(el.dataset.since);
}

function replace(html) {
  const kept = {};
  for (const el of box.querySelectorAll("input[name], select[name]")) kept[el.name] = el.value;
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.name : null;
  box.innerHTML = html;
  for (const el of box.querySelectorAll("input[name], select[name]")) {
    if (kept[el.name] !== undefined && [...(el.options || [{ value: kept[el.name] }])].some((o) => o.value === kept[el.name])) {
      el.value = kept[el.name];
    }
  }
  if (focused) box.querySelector(`[name="${CSS.escape(focused)}"]`)?.focus();
  tick();
}

function say(state, text) {
  status.dataset.live = state;
  status.textContent = text;
}

if (box && "WebSocket" in window) {
  tick();
  setInterval(tick, 1000);
  liveSocket(box.dataset.wsPath, {
    onOpen: () => say("open", "Live: updates by itself."),
    onMessage: (message) => {
      if (message.type !== "round" || typeof message.html !== "string") return;
      replace(message.html);
      say("open", `Live: updated at ${new Date().toLocaleTimeString()}.`);
    },
    onWait: (delay) => say("closed", `Live updates paused; reconnecting in ${Math.round(delay / 1000)} s.`),
    finalCodes: [4403],
    onFinal: () => say("closed", "Live updates refused: you do not run this event (reload after logging in)."),
  });
}
