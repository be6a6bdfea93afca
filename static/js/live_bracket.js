// Live bracket: re-fetches the server-rendered bracket fragment when the event's websocket says scores
// changed (the leaderboard consumer sends a "leaderboard" message then), and polls the fragment every few
// seconds while no websocket is open (e.g. behind a proxy without websockets). The page works without it.
// The socket reconnects by itself (live_socket.js).

import { liveSocket } from "./live_socket.js";

const container = document.getElementById("bracket");
const statusLine = document.getElementById("live-status");
const pollMs = Number(container?.dataset.pollSeconds || 5) * 1000;
let socketOpen = false;
let fetching = null;
let lastHtml = null;

function say(text) {
  if (statusLine) statusLine.textContent = text;
}

async function refresh() {
  if (fetching) return fetching;
  fetching = (async () => {
    try {
      // "no-cache": ask the server every time (a 304 when nothing changed). The fragment's Cache-Control
      // lets a cache serve it stale while it revalidates, which is right for readers arriving, but this
      // fetch follows a change the socket announced and must see it.
      const response = await fetch(container.dataset.fragmentUrl, {
        cache: "no-cache", headers: { "X-Requested-With": "fetch" } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const html = await response.text();
      if (html !== lastHtml) {
        const x = container.querySelector(".stage-tables")?.scrollLeft;
        container.innerHTML = html;
        lastHtml = html;
        if (x) container.querySelector(".stage-tables").scrollLeft = x;
      }
      say(`Updated at ${new Date().toLocaleTimeString()}${socketOpen ? " (live)" : ""}.`);
    } catch (error) {
      say(`Could not update the bracket (${error.message}); trying again.`);
    } finally {
      fetching = null;
    }
  })();
  return fetching;
}

if (container) {
  lastHtml = container.innerHTML;
  liveSocket(container.dataset.liveUrl, {
    onOpen: () => {
      socketOpen = true;
      container.dataset.live = "open"; // pages and tests can tell pushed updates from polling
    },
    onMessage: (message) => {
      if (message.type === "leaderboard") refresh(); // scores changed: the fragment again
    },
    onWait: () => {
      socketOpen = false;
      container.dataset.live = "closed";
    },
  });
  setInterval(() => {
    if (!socketOpen && document.visibilityState !== "hidden") refresh();
  }, pollMs);
}
