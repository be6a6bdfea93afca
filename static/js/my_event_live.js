// "My event" keeps itself up to date: the server sends this student's page part again whenever the event
// changes (their table is ready, through or out, the next table or stage), over ws/events/<slug>/me/.
// The page is complete without this script. Reconnects with back-off (1 s doubling to 30 s, jitter).

const box = document.getElementById("my-event-live");
const statusLine = document.getElementById("my-event-status");
const MAX_DELAY_MS = 30000;

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

function connect(attempt = 0) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}${box.dataset.liveUrl}`);
  let opened = false;
  socket.addEventListener("open", () => {
    opened = true;
    say("This page updates by itself.");
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "my_event" && typeof message.html === "string") {
      show(message.html);
      box.dataset.step = message.step || "";
    } else if (message.type === "error") console.warn("my event:", message.error);
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4403 || event.code === 4404) {
      say("");
      return;
    }
    const next = opened ? 0 : attempt + 1;
    const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** next) * (0.75 + Math.random() / 2);
    say(`Live updates paused; reconnecting in ${Math.round(delay / 1000)} s.`);
    setTimeout(() => connect(next), delay);
  });
  // Back on a sleeping phone's screen: ask for the page at once.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "refresh" }));
    }
  }, { once: true });
}

if (box && box.dataset.liveUrl && "WebSocket" in window) connect();
