// An example bot in JavaScript: hears of its tables on the bots' stream and plays whole games over their
// websockets, as examples/bot.py does in Python.
//
//     npm install            # once, in this folder: the `ws` package
//     UNO_TOKEN=uno_... node bot.js --server http://127.0.0.1:8000 [--event SLUG] [--games N] [--wait S]
//
// It needs a personal access token (made on /account/tokens/). The stream (/ws/bots/stream/) tells it
// when a table is ready for it (a practice game started with "I'll play with my bot", a bot-league game)
// and when an event it is registered for opens check-in (with --event it checks itself in for that event
// and plays only its tables). `act(view)` is the strategy to change; docs/bots.md explains the view.

import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import WebSocket from "ws";

// A player's socket may send 30 messages in 5 seconds (docs/protocol.md); two bots playing each other can
// go faster than that. Past it the server answers `rate_limited`: wait this long before looking again.
const RATE_LIMITED_PAUSE = 1.0;
const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** The action to send, from the seat's view (null: nothing to do now). Change this to win more. */
export function act(view) {
  const legal = view.legal_actions || [];
  for (const kind of ["call_uno", "catch"]) { // say UNO when we must; catch whoever forgot to
    const action = legal.find((a) => a.type === kind);
    if (action) return action;
  }
  const plays = legal.filter((a) => a.type === "play");
  if (plays.length) return plays[Math.floor(Math.random() * plays.length)]; // a wild is listed once per colour
  return legal.length ? legal[0] : null; // draw, pass, accept, choose a colour...
}

/**
 * The picture with an `update` merged in: an update carries only what moved (docs/protocol.md): the
 * view's and the game's fields that changed, and `hand_seat` and `deadline` when they did. A changed
 * field replaces the one held, except an object for a list (`{"2": {...}}`): the items at those indexes.
 */
export function merge(picture, update) {
  const out = { ...picture, version: update.version };
  for (const key of ["hand_seat", "deadline"]) if (key in update) out[key] = update[key];
  for (const key of ["view", "game"]) {
    if (!(key in update)) continue;
    if (update[key] === null) { out[key] = null; continue; }
    const held = picture[key] || {};
    out[key] = { ...held, ...update[key] };
    for (const [field, value] of Object.entries(update[key])) {
      if (Array.isArray(held[field]) && value !== null && typeof value === "object" && !Array.isArray(value)) {
        out[key][field] = held[field].slice();
        for (const [index, item] of Object.entries(value)) out[key][field][Number(index)] = item;
      }
    }
  }
  return out;
}

/** A socket's messages, one at a time: `next(seconds)` resolves with the next, or null after `seconds`. */
function inbox(socket) {
  const queue = [];
  let waiting = null;
  let closed = null;
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString());
    if (waiting) { const resolve = waiting; waiting = null; resolve(message); } else queue.push(message);
  });
  socket.on("close", (code, reason) => {
    closed = `the server closed the socket: ${code} ${reason}`;
    if (waiting) { const resolve = waiting; waiting = null; resolve(undefined); }
  });
  return {
    next(seconds = Infinity) {
      if (queue.length) return Promise.resolve(queue.shift());
      if (closed) return Promise.reject(new Error(closed));
      return new Promise((resolve, reject) => {
        const timer = Number.isFinite(seconds) ? setTimeout(() => { waiting = null; resolve(null); }, seconds * 1000) : null;
        waiting = (message) => {
          if (timer) clearTimeout(timer);
          if (message === undefined) reject(new Error(closed)); else resolve(message);
        };
      });
    },
  };
}

function open(url, token) {
  const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
  // Read from the start: the server's first message (a table's `state`) may come with the handshake.
  const messages = inbox(socket);
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve({ socket, messages }));
    socket.once("error", reject);
  });
}

/** Play the game at `table` until it is finished; its last `game` (totals, winners). */
async function play(server, token, table) {
  const { socket, messages } = await open(server.replace(/^http/, "ws").replace(/\/$/, "") + table.ws_path, token);
  const run = randomUUID().slice(0, 8); // move ids never repeat, even when this program is restarted mid-game
  let moves = 0;
  let acted = null; // the version we last sent a move for: one move per version
  let picture = null; // the last `state` with every later `update` merged into it
  try {
    for (;;) {
      const message = await messages.next();
      if (message.type === "error") {
        console.log(`  refused: ${message.code}: ${message.message}`);
        if (message.code === "rate_limited") await sleep(RATE_LIMITED_PAUSE); // wait before looking again
        if (!["stale", "already_played"].includes(message.code)) { // a stale move is followed by a state
          acted = null;
          socket.send(JSON.stringify({ type: "sync" })); // look again, then choose again
        }
        continue;
      }
      if (message.type === "state") { // the whole picture: on connect, after a sync or a stale move
        picture = message;
      } else if (message.type === "update" && picture && message.version === picture.version + 1) {
        picture = merge(picture, message);
      } else {
        if (message.type === "update" && picture && message.version > picture.version) {
          picture = null; // a version missed: ask for the whole picture
          socket.send(JSON.stringify({ type: "sync" }));
        }
        continue; // ack, pong, presence, an update already seen or while waiting for the state
      }
      const { game, view, version } = picture;
      if (message.type === "update" && message.by.actor === "system") {
        console.log(`  hand ${game.hand_number} dealt; totals ${JSON.stringify(game.totals)}`);
      }
      if (game.status === "finished") return game;
      const action = view && acted !== version ? act(view) : null;
      if (action) {
        acted = version;
        moves += 1;
        socket.send(JSON.stringify({ type: "move", version, action, id: `${run}-${moves}` }));
      }
    }
  } finally {
    socket.close();
  }
}

async function post(server, token, path) {
  for (;;) {
    const response = await fetch(server.replace(/\/$/, "") + path, {
      method: "POST", headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
    });
    if (response.status !== 429) return response.json();
    await sleep(Number(response.headers.get("Retry-After") || 10));
  }
}

function options(argv) {
  const args = { server: process.env.UNO_SERVER || "http://127.0.0.1:8000", token: process.env.UNO_TOKEN,
    event: null, games: 1, wait: 30 };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, "");
    if (!(name in args) || argv[i + 1] === undefined) throw new Error(`unknown option ${argv[i]} (see the top of bot.js)`);
    args[name] = ["games", "wait"].includes(name) ? Number(argv[i + 1]) : argv[i + 1];
  }
  return args;
}

async function main() {
  const args = options(process.argv.slice(2));
  if (!args.token) throw new Error("give a token: --token or UNO_TOKEN (make one on /account/tokens/)");
  const { socket: stream, messages } = await open(args.server.replace(/^http/, "ws").replace(/\/$/, "") + "/ws/bots/stream/", args.token);
  let played = 0;
  while (args.games === 0 || played < args.games) {
    const message = await messages.next(args.wait);
    if (message === null) break; // nothing ready for that long
    if (args.event && message.event && message.event !== args.event) continue; // another event's
    if (message.type === "checkin_open" && args.event) {
      const answer = await post(args.server, args.token, message.check_in);
      console.log(`check-in for ${args.event}: ${answer.status || answer.error}`);
    } else if (message.type === "table_ready" && (!args.event || message.event === args.event)) {
      const where = message.event ? `${message.event} round ${message.round} table ${message.table}` : message.title;
      console.log(`playing game ${message.game} (${where}), seat ${message.seat}`);
      const game = await play(args.server, args.token, message);
      played += 1;
      console.log(`game ${message.game} over: totals ${JSON.stringify(game.totals)}, winners ${JSON.stringify(game.winners)}`);
    }
  }
  stream.close();
  console.log(`played ${played} game(s)`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => { console.error(error.message); process.exit(1); });
}
