// Drawing the table from the model the protocol keeps (view, game, deadline): seats, the centre of the
// table, your hand and buttons, reveals, banners and scores. Everything shown comes from what the
// server sent; what you may do comes only from `view.legal_actions`.

import { cardBack, cardElement, colourChip, colourName, describeCard } from "./cards.js";
import { handWords, say } from "./live_regions.js";
import { handSummary } from "./summary.js";

const COLOUR_ORDER = "RYGBSHDC";
const RANK_ORDER = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2", "BL",
  "A", "10", "J", "Q", "K"];

export const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

/** Hand order for people: by colour, then rank; wild cards last. */
export function sortHand(codes) {
  const key = (code) => {
    const info = describeCard(code);
    const colour = info.colour || info.suit;
    const c = colour ? COLOUR_ORDER.indexOf(colour) : 9;
    const rankPart = info.rank || code.slice(1);
    const r = RANK_ORDER.indexOf(rankPart);
    return [info.colour ? c : 9, r < 0 ? 50 : r, code];
  };
  return [...codes].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1] || (ka[2] < kb[2] ? -1 : ka[2] > kb[2] ? 1 : 0);
  });
}

/** What the legal actions allow, grouped for the buttons. */
export function legalSummary(view) {
  const legal = (view && view.legal_actions) || [];
  const out = { plays: new Map(), draw: null, pass: null, uno: null, challenge: null, accept: null,
    colours: [], catches: [] };
  for (const a of legal) {
    switch (a.type) {
      case "play":
        if (!out.plays.has(a.card)) out.plays.set(a.card, []);
        out.plays.get(a.card).push(a);
        break;
      case "draw": out.draw = a; break;
      case "pass": out.pass = a; break;
      case "call_uno": out.uno = a; break;
      case "challenge": out.challenge = a; break;
      case "accept": out.accept = a; break;
      case "choose_colour": out.colours.push(a); break;
      case "catch": out.catches.push(a); break;
      default: break;
    }
  }
  return out;
}

export function gameOver(game) {
  return Boolean(game && ((game.winners && game.winners.length) ||
    ["finished", "over", "done"].includes(game.status)));
}

function seatOrder(count, first) {
  const out = [];
  for (let i = 0; i < count; i += 1) out.push((first + i) % count);
  return out;
}

/** The game seat sitting at a seat of the current hand (they differ once players are eliminated). */
export function gameSeatOf(game, handSeat) {
  const map = game && game.hand_seats;
  return map && map[handSeat] !== undefined ? map[handSeat] : handSeat;
}

function totalOf(game, gameSeat) {
  const totals = (game && game.totals) || [];
  return totals[gameSeat] ?? 0;
}

export function renderSeats(model, ctx) {
  const view = model.view;
  const box = $("seats");
  if (!view) return;
  const players = view.players || [];
  const mySeat = model.role === "player" ? model.handSeat : null;
  // Start after your own seat so the strip follows the order of play; spectators start at seat 0.
  const order = seatOrder(players.length, mySeat === null ? 0 : mySeat + 1);
  const seatInfo = (model.game && model.game.seats) || [];
  const items = order.map((seat) => {
    const p = players[seat] || { seat, cards: 0, uno: false };
    const li = el("li", "seat");
    li.dataset.seat = String(seat);
    if (view.turn === seat && view.phase !== "over") li.classList.add("on-turn");
    if (seat === mySeat) li.classList.add("me");
    if (view.winner === seat) li.classList.add("winner");
    li.appendChild(el("span", "seat-name", ctx.who(seat)));
    const facts = el("span", "seat-facts");
    const count = el("span", "seat-count");
    count.appendChild(el("span", "mini-back"));
    count.appendChild(el("span", "seat-count-number", String(p.cards)));
    count.setAttribute("aria-label", `${p.cards} card${p.cards === 1 ? "" : "s"}`);
    facts.appendChild(count);
    if (p.uno) facts.appendChild(el("span", "badge-uno", "UNO"));
    if (view.catchable === seat) facts.appendChild(el("span", "badge-catch", "no UNO!"));
    const gameSeat = gameSeatOf(model.game, seat);
    facts.appendChild(el("span", "seat-total", `${totalOf(model.game, gameSeat)} pts`));
    li.appendChild(facts);
    const tags = el("span", "seat-tags");
    if (seat === mySeat) tags.appendChild(el("span", "tag tag-you", "you"));
    if (view.dealer === seat) tags.appendChild(el("span", "tag", "dealer"));
    const info = seatInfo[gameSeat] || {};
    if (info.bot) tags.appendChild(el("span", "tag", "bot"));
    if (info.takeover) tags.appendChild(el("span", "tag tag-away", "bot plays (away)"));
    else if (info.connected === false && !info.bot) tags.appendChild(el("span", "tag tag-away", "away"));
    if (p.team !== undefined) tags.appendChild(el("span", "tag", `team ${p.team + 1}`));
    if (tags.childNodes.length) li.appendChild(tags);
    return li;
  });
  box.replaceChildren(...items);
}

export function renderCentre(model, ctx, legal) {
  const view = model.view;
  if (!view) return;
  const pile = $("draw-pile");
  const canDraw = Boolean(legal.draw) && !ctx.busy;
  const back = cardBack({ button: canDraw, label: canDraw ? `Draw a card (${view.draw_pile} left)` : `Draw pile: ${view.draw_pile} cards` });
  if (canDraw) {
    back.classList.add("playable");
    back.dataset.action = "draw";
  }
  pile.replaceChildren(back, el("span", "pile-count", `${view.draw_pile} left`));

  const top = $("discard");
  const topCard = cardElement(view.top, { size: "lg", extra: " (top of the discard pile)" });
  top.replaceChildren(topCard, el("span", "pile-count", `${view.discard_pile} played`));

  const colour = $("current-colour");
  colour.replaceChildren(el("span", "label", "Colour"), colourChip(view.colour));
  colour.dataset.colour = view.colour || "";

  const dir = $("direction");
  const left = view.direction === "left";
  dir.replaceChildren(el("span", "dir-arrow", left ? "↻" : "↺"),
    el("span", "label", left ? "to the left" : "to the right"));
  dir.setAttribute("aria-label", `Play goes ${left ? "to the left (clockwise)" : "to the right (anticlockwise)"}`);

  const pending = $("pending");
  if (view.pending) {
    pending.hidden = false;
    const mine = model.role === "player" && view.turn === model.handSeat;
    const whom = view.turn === null || view.turn === undefined || mine ? "" : ` · ${ctx.who(view.turn)}`;
    pending.textContent = `+${view.pending} to draw${whom}`;
  } else {
    pending.hidden = true;
    pending.textContent = "";
  }
}

/** The sentence under the seats: whose turn it is and what they may do. */
export function turnText(model, ctx, legal) {
  const view = model.view;
  const status = model.game && model.game.status;
  if (gameOver(model.game)) return "The game is over.";
  if (status === "paused") return "The game is paused by the organizers.";
  if (!view) return "Waiting for the game…";
  if (view.phase === "over") return "The hand is over.";
  const mine = model.role === "player" && view.turn === model.handSeat;
  const name = ctx.who(view.turn);
  if (!mine) {
    if (view.phase === "choose_colour") return `${name} chooses the starting colour…`;
    if (view.phase === "challenge") return `${name} may challenge the Wild Draw Four…`;
    return `${name}’s turn`;
  }
  if (view.phase === "choose_colour") return "Your turn: choose the starting colour.";
  if (view.phase === "challenge") {
    return `Your turn: ${ctx.who(view.challengeable_from)} played a Wild Draw Four on you. Challenge or accept?`;
  }
  if (view.phase === "after_draw" && view.drawn) {
    return `Your turn: you drew ${describeCard(view.drawn).name}. Play it${legal.pass ? " or pass" : ""}.`;
  }
  if (view.pending) return `Your turn: ${view.pending} cards are coming your way. Stack on them or draw.`;
  return legal.plays.size ? "Your turn: play a highlighted card or draw." : "Your turn: nothing fits — draw a card.";
}

function focusKey() {
  const active = document.activeElement;
  if (!active || !active.dataset) return null;
  if (active.dataset.card && active.closest("#hand")) {
    const same = [...document.querySelectorAll("#hand .card")].filter((c) => c.dataset.card === active.dataset.card);
    return { card: active.dataset.card, index: same.indexOf(active) };
  }
  if (active.dataset.action) return { action: active.dataset.action, target: active.dataset.target };
  return null;
}

function restoreFocus(key) {
  if (!key) return;
  let target = null;
  if (key.card) {
    const same = [...document.querySelectorAll("#hand .card")].filter((c) => c.dataset.card === key.card);
    target = same[Math.min(key.index, same.length - 1)] || document.querySelector("#hand .card.playable") ||
      document.querySelector("#hand .card");
  } else if (key.action) {
    const sel = `[data-action="${key.action}"]${key.target ? `[data-target="${key.target}"]` : ""}`;
    target = document.querySelector(sel);
  }
  if (target && !target.disabled && !target.hidden) target.focus({ preventScroll: true });
}

export function renderHand(model, ctx, legal) {
  const box = $("hand");
  if (!box) return;
  const view = model.view;
  const key = focusKey();
  const hand = (view && view.hand) || [];
  const cards = sortHand(hand).map((code) => {
    const playable = legal.plays.has(code) && !ctx.busy;
    const card = cardElement(code, { button: true, playable, dimmed: !legal.plays.has(code),
      extra: legal.plays.has(code) ? ", playable" : "" });
    if (view.drawn === code && view.phase === "after_draw") card.classList.add("just-drawn");
    if (!playable) card.setAttribute("aria-disabled", "true");
    card.dataset.action = "play";
    return card;
  });
  box.replaceChildren(...cards);
  box.setAttribute("aria-label", `Your hand: ${hand.length} card${hand.length === 1 ? "" : "s"}`);
  const count = $("hand-count");
  if (count) count.textContent = `${hand.length} card${hand.length === 1 ? "" : "s"}`;
  restoreFocus(key);
}

export function renderActions(model, ctx, legal) {
  const box = $("actions");
  if (!box) return;
  const key = focusKey();
  const set = (action, allowed) => {
    const button = box.querySelector(`[data-action="${action}"]`);
    if (!button) return;
    button.hidden = !allowed;
    button.disabled = !allowed || ctx.busy;
  };
  set("draw", Boolean(legal.draw));
  set("pass", Boolean(legal.pass));
  set("call_uno", Boolean(legal.uno));
  set("challenge", Boolean(legal.challenge));
  set("accept", Boolean(legal.accept));

  const extra = $("action-extra");
  const nodes = [];
  for (const a of legal.catches) {
    const b = el("button", "btn btn-warning fw-bold", `Catch ${ctx.who(a.target)}!`);
    b.type = "button";
    b.dataset.action = "catch";
    b.dataset.target = String(a.target);
    b.disabled = ctx.busy;
    nodes.push(b);
  }
  if (legal.colours.length) {
    const group = el("div", "choose-colour");
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", "Choose the starting colour");
    group.appendChild(el("span", "label", "Choose the colour:"));
    for (const a of legal.colours) {
      const b = el("button", `btn colour-button colour-${a.colour}`);
      b.type = "button";
      b.dataset.action = "choose_colour";
      b.dataset.target = a.colour;
      b.disabled = ctx.busy;
      b.appendChild(colourChip(a.colour));
      group.appendChild(b);
    }
    nodes.push(group);
  }
  extra.replaceChildren(...nodes);
  const anything = [...box.querySelectorAll("button")].some((b) => !b.hidden);
  box.classList.toggle("idle", !anything);
  const view = model.view || {};
  box.classList.toggle("waiting", view.turn !== model.handSeat && view.phase !== "over");
  restoreFocus(key);
}

/** X-Ray (and challenge) reveals, near the top of the table; gone when the hand is over. */
export function renderReveals(model, ctx) {
  const box = $("reveals");
  if (!box) return;
  const view = model.view || {};
  const rows = [];
  const handOver = view.phase === "over" || gameOver(model.game);
  for (const r of handOver ? [] : view.reveals || []) {
    const row = el("div", "reveal");
    row.dataset.reason = r.reason;
    row.dataset.of = String(r.of);
    const why = r.reason === "xray" ? "X-Ray" : r.reason === "challenge" ? "Challenge" : r.reason;
    row.appendChild(el("span", "reveal-title", `${why}: ${ctx.who(r.of)} holds`));
    const cards = el("span", "reveal-cards");
    for (const code of r.cards || []) cards.appendChild(cardElement(code, { size: "sm" }));
    if (!(r.cards || []).length) cards.appendChild(el("span", "text-muted", "no cards"));
    row.appendChild(cards);
    rows.push(row);
  }
  if (Array.isArray(view.partner_hand) && !handOver) {
    const row = el("div", "reveal reveal-partner");
    row.appendChild(el("span", "reveal-title", `Your partner ${ctx.who(view.partner)} holds`));
    const cards = el("span", "reveal-cards");
    for (const code of view.partner_hand) cards.appendChild(cardElement(code, { size: "sm" }));
    row.appendChild(cards);
    rows.push(row);
  }
  box.replaceChildren(...rows);
  box.hidden = rows.length === 0;
}

export function renderBanner(model, ctx) {
  const box = $("banner");
  const view = model.view || {};
  const game = model.game || {};
  if (gameOver(game)) {
    const winners = (game.winners || []).map(ctx.whoGame).join(" and ");
    box.className = "table-banner game-over";
    box.replaceChildren(el("strong", "", "Game over"), el("span", "", winners ? `${winners} won the game!` : ""));
    const summary = handSummary(game, ctx);
    if (summary) box.appendChild(summary);
    box.hidden = false;
  } else if (view.phase === "over") {
    box.className = "table-banner hand-over";
    const summary = handSummary(game, ctx);
    const nodes = [summary || el("strong", "", "Hand over")];
    nodes.push(el("span", "small", "The next hand starts in a moment."));
    box.replaceChildren(...nodes);
    box.hidden = false;
  } else {
    box.hidden = true;
    box.replaceChildren();
  }
}

export function renderScores(model, ctx) {
  const body = $("scores-body");
  if (!body) return;
  const game = model.game || {};
  const view = model.view || {};
  const count = Math.max((game.totals || []).length, (game.seats || []).length, ctx.seatCount);
  const rows = [];
  for (let seat = 0; seat < count; seat += 1) {
    const tr = el("tr");
    tr.dataset.seat = String(seat);
    if (model.role === "player" && seat === model.seat) tr.classList.add("me");
    if ((game.winners || []).includes(seat)) tr.classList.add("winner");
    const th = el("th", "", ctx.whoGame(seat));
    th.scope = "row";
    const info = (game.seats || [])[seat] || {};
    if (info.out) th.appendChild(el("span", "tag ms-1", "out"));
    if ((game.winners || []).includes(seat)) th.appendChild(el("span", "tag tag-win ms-1", "winner"));
    tr.appendChild(th);
    tr.appendChild(el("td", "text-end score-total", String(totalOf(game, seat))));
    rows.push(tr);
  }
  body.replaceChildren(...rows);
  const facts = [];
  if (game.hand_number) facts.push(`Hand ${game.hand_number}`);
  else if (game.hands_played) facts.push(`${game.hands_played} hands played`);
  if (game.target) facts.push(`first to ${game.target} points`);
  const rules = $("scores-facts").dataset.rules || game.preset || view.preset;  // the rules' name as people read it
  if (rules) facts.push(rules);
  $("scores-facts").textContent = facts.join(" · ");
}

/** The verify page's address for a revealed hand: the form filled in, and the hand dealt again. */
export function verifyHref(base, gameId, record) {
  const query = new URLSearchParams({ game: String(gameId), hand: String(record.hand),
    commitment: record.commitment, seed: record.seed, salt: record.salt });
  return `${base}?${query}`;
}

/** The hand in play's commitment and the last hand's revealed seed (game.shuffles: the newest two). */
export function renderFairness(model, ctx) {
  const current = $("shuffle-current");
  const last = $("shuffle-last");
  if (!current || !last) return;
  const shuffles = Array.isArray(model.game && model.game.shuffles) ? model.game.shuffles : [];
  const hidden = [...shuffles].reverse().find((r) => !r.seed);
  const revealed = [...shuffles].reverse().find((r) => r.seed);
  if (hidden) {
    current.replaceChildren(`Hand ${hidden.hand} is shuffled with a secret seed. Its commitment (SHA-256): `,
      el("code", "shuffle-commitment", hidden.commitment));
    current.dataset.hand = String(hidden.hand);
  } else {
    current.textContent = "No hand in play: every dealt hand's seed is shown.";
    delete current.dataset.hand;
  }
  if (revealed) {
    const link = el("a", "verify-link", `Check hand ${revealed.hand}`);
    link.href = verifyHref(ctx.verifyUrl, ctx.gameId, revealed);
    last.replaceChildren(`Hand ${revealed.hand} is over: seed `, el("code", "shuffle-seed", revealed.seed),
      ", salt ", el("code", "shuffle-salt", revealed.salt), ", commitment ",
      el("code", "", revealed.commitment), ". ", link);
    last.dataset.hand = String(revealed.hand);
    last.hidden = false;
  } else {
    last.hidden = true;
    last.replaceChildren();
  }
}

export function renderCountdown(deadline, now) {
  const box = $("countdown");
  if (!box) return;
  if (!deadline) {
    box.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((Date.parse(deadline) - now) / 1000));
  if (!Number.isFinite(left) || left > 3600) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  box.classList.toggle("hurry", left <= 10);
  box.setAttribute("aria-label", `${left} seconds left for this turn`);
}

export function renderAll(model, ctx) {
  const legal = model.role === "player" ? legalSummary(model.view) : legalSummary(null);
  document.body.classList.toggle("busy", ctx.busy);
  renderSeats(model, ctx);
  renderCentre(model, ctx, legal);
  const mine = model.role === "player" && model.view && model.view.turn === model.handSeat &&
    model.view.phase !== "over" && !gameOver(model.game) && model.game.status !== "paused";
  say($("turn-text"), turnText(model, ctx, legal), mine ? handWords(model, legal) : "");
  $("turn-line").classList.toggle("my-turn", Boolean(mine));
  renderHand(model, ctx, legal);
  renderActions(model, ctx, legal);
  renderReveals(model, ctx);
  renderBanner(model, ctx);
  renderScores(model, ctx);
  renderFairness(model, ctx);
  renderCountdown(model.game && model.game.status === "paused" ? null : model.deadline,
    Date.now() + (model.clockOffset || 0));
  const version = $("version");
  if (version) version.textContent = `v${model.version}`;
  $("table").dataset.version = String(model.version);
  return { legal, mine };
}

export { colourName };
