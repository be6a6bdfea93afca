// The event's announcements as a banner (#announcement). Scripts that hold a socket of the event or the
// table (the table, the live leaderboard, the live bracket, "My event") hand each `announcement` message
// on as a window event; on an event page with no such socket this script opens the event's socket itself
// with live_socket.js, which hands announcements on the same way. This is a classic script (the table's
// page loads it so): that module is imported only then, from this script's own folder.
//
// A message with `ended` true (an organizer ended it, or it is past its end time) removes the banner if
// it shows that announcement (`id`); one with an `ends_at` time removes itself when that time comes, as
// does a banner rendered with `data-ends-at` (a page served from a cache after that time too). A banner
// with the class `one-line` (the table's) shows one line and opens to the whole text when tapped.
(() => {
  if (window.announcementsReady) return;
  window.announcementsReady = true;
  const here = document.currentScript.src;
  const LONGEST_TIMER_MS = 2 ** 31 - 1; // setTimeout's limit: a later end is checked again then
  let expiry = null;

  function setOpen(box, open) {
    // The table's banner opens over what follows it (its slot keeps the one line's room): the hand stays put.
    const slot = box.parentElement && box.parentElement.classList.contains("announcement-slot") ? box.parentElement : null;
    if (slot) slot.style.minHeight = open && !box.hidden ? `${box.getBoundingClientRect().height}px` : "";
    box.classList.toggle("expanded", open);
    if (box.classList.contains("one-line")) box.setAttribute("aria-expanded", String(open));
  }

  function hide(box) {
    clearTimeout(expiry);
    box.hidden = true;
    box.dataset.id = "";
    delete box.dataset.endsAt;
    setOpen(box, false);
  }

  function expireAt(box, endsAt) {
    clearTimeout(expiry);
    if (!endsAt) return;
    const left = new Date(endsAt).getTime() - Date.now();
    if (Number.isNaN(left)) return;
    if (left <= 0) hide(box);
    else expiry = setTimeout(() => expireAt(box, endsAt), Math.min(left + 50, LONGEST_TIMER_MS));
  }

  function show(message) {
    const box = document.getElementById("announcement");
    if (!box || !message) return;
    const id = message.id === undefined || message.id === null ? "" : String(message.id);
    if (message.ended) {
      if (!box.dataset.id || box.dataset.id === id) hide(box);
      return;
    }
    if (typeof message.text !== "string" || !message.text) return;
    const at = message.at ? new Date(message.at) : null;
    const time = box.querySelector(".announcement-time");
    const text = box.querySelector(".announcement-text");
    if (time) time.textContent = at && !Number.isNaN(at.getTime()) ? at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
    if (text) text.textContent = message.text;
    if (box.classList.contains("one-line")) box.title = message.text;
    box.dataset.id = id;
    if (message.ends_at) box.dataset.endsAt = message.ends_at;
    else delete box.dataset.endsAt;
    setOpen(box, false);
    box.hidden = false;
    expireAt(box, message.ends_at);
  }
  window.addEventListener("announcement", (event) => show(event.detail));

  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("announcement");
    if (!box) return;
    if (!box.hidden) expireAt(box, box.dataset.endsAt);
    if (box.classList.contains("one-line")) {
      const toggle = () => setOpen(box, !box.classList.contains("expanded"));
      box.addEventListener("click", toggle);
      box.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(); }
      });
    }
    if (!box.dataset.announceUrl || !("WebSocket" in window)) return;
    const held = document.querySelector("[data-live-url], #table[data-ws-path]") !== null;
    if (!held) import(new URL("live_socket.js", here)).then(({ liveSocket }) => liveSocket(box.dataset.announceUrl));
  });
})();
