// Entry module of the table page (templates/games/table.html): connects the socket, the protocol, the
// renderer and the turn signal, and turns clicks and key presses into moves.

import { colourChip, describeCard } from "./cards.js";
import { TableClient } from "./protocol.js";
import { renderLog } from "./live_regions.js";
import { $, gameOver, gameSeatOf, legalSummary, renderAll, renderCountdown } from "./render.js";
import { openCardsSheet } from "./sheet.js";
import { TurnSignal } from "./signal.js";
import { closeMessage, ReconnectingSocket, socketUrl } from "./socket.js";
import { describeEvent } from "./words.js";
import { NextBlock } from "./next_block.js";

const LOG_LINES = 80;
const root = $("table");
const seatNames = JSON.parse($("seat-names").textContent || "[]");
const page = {
  problem: "", // why the connection last closed, while it is down
  model: null,
  busy: false,
  log: [],
  legal: legalSummary(null),
  freshSocket: false, // the socket opened and its first `state` has not come yet
};

/** The name of a game seat. */
function whoGame(seat) {
  if (seat === null || seat === undefined) return "nobody";
  const seats = (page.model && page.model.game && page.model.game.seats) || [];
  const fromGame = seats[seat] && seats[seat].name;
  return fromGame || seatNames[seat] || `Seat ${Number(seat) + 1}`;
}

/** The name of a seat of the current hand (views and events number seats within the hand). */
function who(handSeat) {
  if (handSeat === null || handSeat === undefined) return "nobody";
  return whoGame(gameSeatOf(page.model && page.model.game, handSeat));
}

const ctx = {
  who,
  whoGame,
  verifyUrl: root.dataset.verifyUrl || "/play/verify/",
  gameId: root.dataset.gameId,
  get busy() { return page.busy; },
  get seatCount() { return seatNames.length; },
};

// ---- messages for a person ---------------------------------------------------------------------------
let messageTimer = null;
function showMessage(text, kind = "danger") {
  const box = $("message");
  box.className = `alert alert-${kind} py-2 mb-2`;
  box.textContent = text;
  box.hidden = false;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---- why the connection closed ---------------------------------------------------------------------
const PROBE_AFTER_FAILURES = 3; // closes in a row without opening: ask the page itself what is wrong
let problemTimer = null;

function showProblem(text, kind = "warning") {
  const box = $("conn-problem");
  clearTimeout(problemTimer);
  box.className = `alert alert-${kind} py-2 mb-2`;
  box.textContent = text;
  box.hidden = !text;
}

async function probePage() {
  // A socket refused at the handshake says nothing about why; the page's own address does (404: the
  // table is gone or is not yours to see; any answer at all: the server is up).
  try {
    const response = await fetch(window.location.href, { credentials: "same-origin", cache: "no-store" });
    if (response.status === 404 || response.status === 403) {
      socket.stop();
      showProblem("This table does not exist any more, or you may not see it: the page stopped reconnecting.",
        "danger");
    }
  } catch {
    // the network or the server is down: keep trying, the status says so
  }
}

function onClose(info) {
  page.problem = closeMessage(info);
  if (info.final) {
    showProblem(`${page.problem} The page stopped reconnecting.`, "danger");
    return;
  }
  showProblem(`${page.problem} Reconnecting…`);
  if (info.failures >= PROBE_AFTER_FAILURES) probePage();
}

function setStatus(status, detail) {
  const box = $("conn-status");
  const words = {
    connecting: "Connecting…",
    open: "Live",
    waiting: `${page.problem || "Connection lost."} Retrying in ${Math.ceil((detail || 0) / 1000)} s`,
    closed: "Disconnected",
  };
  box.textContent = words[status] || status;
  box.dataset.status = status;
  if (status === "waiting") showProblem(`${page.problem || "Connection lost."} Retrying in ${Math.ceil((detail || 0) / 1000)} s.`);
  if (status === "open" && page.problem) {
    // Say what happened for a while after coming back, then clear it.
    showProblem(`${page.problem} Reconnected.`, "info");
    page.problem = "";
    problemTimer = setTimeout(() => { $("conn-problem").hidden = true; }, 10000);
  }
  if (status !== "open" && page.busy) client.settle();
}

// ---- log -----------------------------------------------------------------------------------------------
function logLinesFrom(items) {
  const out = [];
  for (const item of items) {
    if (typeof item === "string") out.push(item);
    else if (item && typeof item.text === "string") out.push(item.text);
    else if (item && Array.isArray(item.events)) { // a stored move; a bot's (access token) marked so
      const lines = logLinesFrom(item.events);
      if (item.by && item.by.via_token && lines.length) lines[0] = `🤖 ${lines[0]}`;
      out.push(...lines);
    }
    else {
      const line = describeEvent(item, who, whoGame);
      if (line) out.push(line);
    }
  }
  return out;
}

// ---- rendering -----------------------------------------------------------------------------------------
const signal = new TurnSignal({ baseTitle: root.dataset.title || document.title, toggle: $("sound-toggle"),
  prompt: $("sound-prompt") });
const nextBlock = new NextBlock(root.dataset.nextUrl, $("next-block")); // partner rotations only

// ---- a bot playing for me (missed turns): being here again ends it -------------------------------------

function botPlaysForMe() {
  const model = page.model;
  if (!model || model.role !== "player" || model.seat === null) return false;
  const seats = (model.game && model.game.seats) || [];
  return Boolean(seats[model.seat] && seats[model.seat].takeover) && !gameOver(model.game);
}

/** Tell the server the player is back (protocol: a `sync` ends a takeover); it answers with a `state`. */
function iAmBack() {
  client.requestSync();
}

function renderTakeover() {
  const notice = $("takeover-notice");
  if (notice) notice.hidden = !botPlaysForMe();
}

/** The badge beside the title: "Playing" or "Watching" while the game runs, "Game over" once it ends. */
function renderStatusBadge() {
  const badge = $("role-badge");
  if (!badge) return;
  const over = gameOver(page.model.game);
  const role = root.dataset.role === "player" ? "Playing" : "Watching";
  badge.textContent = over ? "Game over" : role;
  badge.classList.toggle("text-bg-success", over);
  badge.classList.toggle("text-bg-primary", !over && root.dataset.role === "player");
  badge.classList.toggle("text-bg-secondary", !over && root.dataset.role !== "player");
}

function redraw() {
  if (!page.model) return;
  renderTakeover();
  renderStatusBadge();
  const { legal, mine } = renderAll(page.model, ctx);
  page.legal = legal;
  signal.update(Boolean(mine) && !gameOver(page.model.game), { gameOver: gameOver(page.model.game) });
  if (gameOver(page.model.game)) nextBlock.gameOver();
  root.classList.add("ready");
}

function onState(model, { events, full, by }) {
  page.model = model;
  if (full && page.freshSocket) {
    // Opening the table (or coming back to it after a lost connection) is being back.
    page.freshSocket = false;
    if (botPlaysForMe()) iAmBack();
  }
  let added = null; // lines new at the top of the log (null: a whole new log)
  if (full) {
    // The server's own recent log; shown newest first like the lines we add.
    page.log = logLinesFrom(model.log).reverse().slice(0, LOG_LINES);
  } else {
    const lines = logLinesFrom(events);
    if (by && by.actor === "timer" && lines.length) lines[0] = `Time ran out for ${whoGame(by.seat)}. ${lines[0]}`;
    if (by && by.via_token && lines.length) lines[0] = `🤖 ${lines[0]}`; // the player's bot, by its token
    page.log = [...lines.reverse(), ...page.log].slice(0, LOG_LINES);
    added = Math.min(lines.length, LOG_LINES);
  }
  renderLog(page.log, added);
  redraw();
}

const socket = new ReconnectingSocket(socketUrl(root.dataset.wsPath), {
  onOpen: (reconnected) => {
    page.freshSocket = true;
    client.connected(reconnected);
  },
  onMessage: (message) => client.handle(message),
  onStatus: setStatus,
  onClose,
});

const client = new TableClient({
  send: (message) => socket.send(message),
  onState,
  onError: (error) => {
    const text = error.message || error.error || "The server refused that.";
    showMessage(error.code === "stale" ? `${text} The table has been refreshed.` : text,
      error.code === "stale" ? "warning" : "danger");
  },
  onNotice: (notice) => showMessage(`${notice.message}.`, "info"), // e.g. `seat_shared`: your bot plays here
  onBusy: (busy) => {
    page.busy = busy;
    redraw();
  },
});

// ---- the colour chooser --------------------------------------------------------------------------------
function chooseColour(card, options) {
  const dialog = $("colour-dialog");
  const list = $("colour-options");
  $("colour-dialog-title").textContent = `Play ${describeCard(card).name}: choose a colour`;
  list.replaceChildren(...options.map((option) => {
    const b = document.createElement("button");
    b.type = "submit";
    b.value = option.colour;
    b.className = `btn colour-button colour-${option.colour}`;
    b.appendChild(colourChip(option.colour));
    return b;
  }));
  return new Promise((resolve) => {
    const done = () => {
      dialog.removeEventListener("close", done);
      const value = dialog.returnValue;
      resolve(options.find((o) => o.colour === value) || null);
    };
    dialog.returnValue = "";
    dialog.addEventListener("close", done);
    dialog.showModal();
    list.querySelector("button")?.focus();
  });
}

async function playCard(code) {
  const options = page.legal.plays.get(code);
  if (!options || page.busy) return;
  if (options.length === 1 && !options[0].colour) {
    client.move(options[0]);
    return;
  }
  const chosen = await chooseColour(code, options);
  if (chosen) client.move(chosen);
}

function act(button) {
  const action = button.dataset.action;
  const legal = page.legal;
  switch (action) {
    case "play":
      return playCard(button.dataset.card);
    case "draw": return legal.draw && client.move(legal.draw);
    case "pass": return legal.pass && client.move(legal.pass);
    case "call_uno": return legal.uno && client.move(legal.uno);
    case "challenge": return legal.challenge && client.move(legal.challenge);
    case "accept": return legal.accept && client.move(legal.accept);
    case "catch": {
      const target = Number(button.dataset.target);
      const a = legal.catches.find((c) => c.target === target);
      return a && client.move(a);
    }
    case "choose_colour": {
      const a = legal.colours.find((c) => c.colour === button.dataset.target);
      return a && client.move(a);
    }
    default:
      return undefined;
  }
}

$("cards-sheet-open").addEventListener("click", () => openCardsSheet($("cards-sheet")));

if (root.dataset.role === "player") {
  $("back-button").addEventListener("click", iAmBack);
  root.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button || button.disabled || !root.contains(button)) return;
    if (button.getAttribute("aria-disabled") === "true") {
      if (button.dataset.action === "play") showMessage(`${describeCard(button.dataset.card).name} cannot be played now.`, "secondary");
      return;
    }
    act(button);
  });
  // Arrow keys move along the hand; Tab, Enter and Space work as for any button.
  $("hand").addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    const cards = [...$("hand").querySelectorAll(".card")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    const next = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: cards.length - 1 }[event.key];
    if (cards[next]) {
      cards[next].focus();
      event.preventDefault();
    }
  });
}

setInterval(() => {
  if (!page.model) return;
  const paused = page.model.game && page.model.game.status === "paused";
  renderCountdown(paused ? null : page.model.deadline, Date.now() + (page.model.clockOffset || 0));
}, 250);

socket.start();

// For tests and the curious: the live model, read only, and the page's own socket (anyone can send
// anything over their own socket from the browser's console; the server checks every message).
window.ochoTable = {
  get model() { return page.model; },
  get sound() { return signal.soundState(); },
  get log() { return page.log; },
  send: (message) => socket.send(message),
  sendRaw: (text) => socket.isOpen() && (socket.ws.send(text), true),
};
