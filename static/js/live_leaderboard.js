// Live leaderboard: keeps the server-rendered table#leaderboard up to date over a websocket.
// The page is complete without this script; it only replaces the rows when the server sends new ones.
// The socket's URL carries the page shown (?page=N): the server sends that page's rows (100 a page).
// The socket reconnects by itself (live_socket.js).

import { liveSocket } from "./live_socket.js";

const table = document.querySelector("table#leaderboard[data-live-url]");
const statusLine = document.getElementById("live-status");
const NUMBERS = ["points_won", "games_won", "hands_won", "points_left"];

function say(text) {
  if (statusLine) statusLine.textContent = text;
}

function playerUrl(id) {
  return table.dataset.playerUrl.replace(/0\/$/, `${id}/`);
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = String(text);
  if (className) td.className = className;
  return td;
}

function buildRow(row, previous, rating) {
  const tr = document.createElement("tr");
  tr.dataset.playerId = row.player_id;
  tr.id = `player-${row.player_id}`;
  tr.appendChild(cell(row.place || row.rank));
  const name = document.createElement("td");
  const link = document.createElement("a");
  link.href = playerUrl(row.player_id);
  link.textContent = row.display_name;
  name.appendChild(link);
  if (row.status === "withdrawn" || row.status === "disqualified") {
    const note = document.createElement("small");
    note.className = "text-muted";
    note.textContent = ` (${row.status})`;
    name.append(" ", note);
  }
  if (row.participation_label) {
    const mark = document.createElement("span");
    mark.className = "badge text-bg-secondary participation";
    mark.textContent = row.participation_label;
    name.append(" ", mark);
  }
  tr.appendChild(name);
  for (const key of NUMBERS) tr.appendChild(cell(row[key], "text-end"));
  tr.appendChild(cell(rating || "", "text-end rating")); // as the page rendered it (the ratings app's column)
  if (previous && previous !== tr.textContent) tr.classList.add("changed");
  return tr;
}

function render(rows) {
  const body = table.tBodies[0];
  const before = new Map([...body.rows].map((tr) => [tr.dataset.playerId, tr.textContent]));
  const ratings = new Map([...body.rows].map((tr) => [tr.dataset.playerId, tr.querySelector("td.rating")?.textContent]));
  const fresh = document.createDocumentFragment();
  for (const row of rows) {
    const id = String(row.player_id);
    fresh.appendChild(buildRow(row, before.get(id), ratings.get(id)));
  }
  if (!rows.length) {
    const tr = document.createElement("tr");
    const td = cell("No players yet.", "text-muted");
    td.colSpan = 7;
    tr.appendChild(td);
    fresh.appendChild(tr);
  }
  body.replaceChildren(fresh);
  say(`Live: updated at ${new Date().toLocaleTimeString()}.`);
  document.dispatchEvent(new Event("scores-changed")); // reader.js updates the reader's own position
}

if (table && "WebSocket" in window) {
  liveSocket(table.dataset.liveUrl, {
    onOpen: () => say("Live: connected."),
    onMessage: (message) => {
      if (message.type !== "leaderboard" || !Array.isArray(message.rows)) return;
      if (message.page === undefined || String(message.page) === (table.dataset.page || "1")) render(message.rows);
    },
    onWait: (delay) => say(`Live updates paused; reconnecting in ${Math.round(delay / 1000)} s. `
      + "The table shows the last scores received."),
    refreshOnShow: true, // back on a sleeping phone's screen: the rows at once, not at the next change
  });
}
