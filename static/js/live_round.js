// The organizer's live round view: the socket sends the tables rendered on every change (at most once a
// second); typed reasons and chosen replacements survive the swap. "Last move" counts up here.
(() => {
  const box = document.getElementById("live-tables");
  const status = document.getElementById("live-status");
  if (!box || !("WebSocket" in window)) return;

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

  function connect(attempt = 0) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${box.dataset.wsPath}`);
    let opened = false;
    socket.addEventListener("open", () => {
      opened = true;
      say("open", "Live: updates by itself.");
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "round" && typeof message.html === "string") {
        replace(message.html);
        say("open", `Live: updated at ${new Date().toLocaleTimeString()}.`);
      } else if (message.type === "error") console.warn("live round:", message.error);
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4403) {
        say("closed", "Live updates refused: you do not run this event (reload after logging in).");
        return;
      }
      const next = opened ? 0 : attempt + 1;
      const delay = Math.min(30000, 1000 * 2 ** next) * (0.75 + Math.random() / 2);
      say("closed", `Live updates paused; reconnecting in ${Math.round(delay / 1000)} s.`);
      setTimeout(() => connect(next), delay);
    });
  }

  tick();
  setInterval(tick, 1000);
  connect();
})();
