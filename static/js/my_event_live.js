// "My event" keeps itself up to date: the server sends this student's page part again whenever the event
// changes (their table is ready, through or out, the next table or stage), over ws/events/<slug>/me/.
// The page is complete without this script. The socket reconnects by itself (live_socket.js) unless the
// server refused it (not logged in, 4403) or there is no such event (4404). It also carries the event's
// announcements: live_socket.js hands them to announcements.js, which shows the page's banner.

import { liveSocket } from "./live_socket.js";

const box = document.getElementById("my-event-live");
const statusLine = document.getElementById("my-event-status");

function say(text) {
  if (statusLine) statusLine.textContent = text;
}

function csrfToken() {
  const input = document.querySelector("#my-event-csrf input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function show(html) {
  box.innerHTML = html;
  // The server renders the part without a request: its forms take the page's CSRF token.
  const token = csrfToken();
  for (const form of box.querySelectorAll("form[method=post]")) {
    if (token && !form.querySelector("input[name=csrfmiddlewaretoken]")) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = token;
      form.prepend(input);
    }
  }
  box.dataset.updated = String(Date.now());
}

if (box && box.dataset.liveUrl && "WebSocket" in window) {
  liveSocket(box.dataset.liveUrl, {
    onOpen: () => say("This page updates by itself."),
    onMessage: (message) => {
      if (message.type !== "my_event" || typeof message.html !== "string") return;
      show(message.html);
      box.dataset.step = message.step || "";
    },
    onWait: (delay) => say(`Live updates paused; reconnecting in ${Math.round(delay / 1000)} s.`),
    finalCodes: [4403, 4404],
    onFinal: () => say(""),
    refreshOnShow: true, // back on a sleeping phone's screen: the page at once
  });
}
