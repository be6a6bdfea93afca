// Cards drawn by the site: every card code of every preset (see games/engine/cards.py) becomes a small
// DOM element with a colour, a colour-blind mark (a shape per UNO colour, the suit for playing cards)
// in two corners, a readable centre, and a name such as "Red 7" or "Wild Draw Four".

export const COLOURS = {
  R: { name: "Red", mark: "▲" },
  Y: { name: "Yellow", mark: "●" },
  G: { name: "Green", mark: "■" },
  B: { name: "Blue", mark: "◆" },
  // U+FE0E asks for the text (not emoji) form of the suit symbols on phones.
  S: { name: "Spades", mark: "♠\uFE0E" },
  H: { name: "Hearts", mark: "♥\uFE0E" },
  D: { name: "Diamonds", mark: "♦\uFE0E" },
  C: { name: "Clubs", mark: "♣\uFE0E" },
};

const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
const UNO_KINDS = {
  S: { kind: "skip", word: "Skip", icon: "skip" },
  R: { kind: "reverse", word: "Reverse", icon: "reverse" },
  D2: { kind: "draw2", word: "Draw 2", centre: "+2" },
  BL: { kind: "blank", word: "Blank", centre: "" },
};
const SPECIALS = {
  W: { kind: "wild", name: "Wild", icon: "wild", corner: "W" },
  WD4: { kind: "wild_draw4", name: "Wild Draw Four", centre: "+4", corner: "+4", icon: "wild" },
  O8: { kind: "ocho", name: "Ocho Wild", centre: "8", corner: "8", icon: "wild" },
  SH: { kind: "shield", name: "Shield", icon: "shield", corner: "SH" },
  XR: { kind: "xray", name: "X-Ray", icon: "eye", corner: "XR" },
  DR: { kind: "dead_red", name: "Dead Red", colour: "R", icon: "skull", corner: "DR" },
  BB: { kind: "boo_blue", name: "Boo Blue", colour: "B", icon: "ghost", corner: "BB" },
  JK: { kind: "joker", name: "Joker", centre: "★", corner: "JK", icon: "wild" },
};

// Small inline icons (static strings, never built from data).
const SVG = (body) => `<svg viewBox="0 0 40 40" aria-hidden="true" focusable="false">${body}</svg>`;
const ICONS = {
  skip: SVG('<circle cx="20" cy="20" r="13" fill="none" stroke="currentColor" stroke-width="5"/>' +
    '<path d="M11 29 29 11" stroke="currentColor" stroke-width="5"/>'),
  reverse: SVG('<path d="M9 16h17l-5-6M31 24H14l5 6" fill="none" stroke="currentColor" stroke-width="4.5" ' +
    'stroke-linecap="round" stroke-linejoin="round"/>'),
  wild: SVG('<path d="M20 20V4a16 16 0 0 1 16 16z" fill="#e53935"/><path d="M20 20h16a16 16 0 0 1-16 16z" fill="#1e66d0"/>' +
    '<path d="M20 20v16A16 16 0 0 1 4 20z" fill="#2e9e44"/><path d="M20 20H4A16 16 0 0 1 20 4z" fill="#f6c200"/>'),
  shield: SVG('<path d="M20 4 33 9v10c0 8-5.5 14-13 17C12.5 33 7 27 7 19V9z" fill="none" stroke="currentColor" ' +
    'stroke-width="4" stroke-linejoin="round"/><path d="M20 10v20" stroke="currentColor" stroke-width="3"/>'),
  eye: SVG('<path d="M3 20s6-10 17-10 17 10 17 10-6 10-17 10S3 20 3 20z" fill="none" stroke="currentColor" ' +
    'stroke-width="3.5"/><circle cx="20" cy="20" r="5.5" fill="currentColor"/>'),
  skull: SVG('<path d="M20 5c-8 0-13 5-13 12 0 4 2 7 5 8v6h16v-6c3-1 5-4 5-8 0-7-5-12-13-12z" fill="currentColor"/>' +
    '<circle cx="14.5" cy="17" r="3.5" fill="#fff"/><circle cx="25.5" cy="17" r="3.5" fill="#fff"/>' +
    '<path d="M16 27v4M20 27v4M24 27v4" stroke="#fff" stroke-width="1.6"/>'),
  ghost: SVG('<path d="M9 35V17a11 11 0 0 1 22 0v18l-3.7-3-3.6 3-3.7-3-3.7 3-3.6-3z" fill="currentColor"/>' +
    '<circle cx="16" cy="17" r="2.6" fill="#fff"/><circle cx="24" cy="17" r="2.6" fill="#fff"/>'),
};

/** What a card code means: kind, colour letter (null for wild cards), a name for people and screen readers. */
export function describeCard(code) {
  const special = SPECIALS[code];
  if (special) return { code, colour: special.colour || null, ...special };
  let m = /^([RYGB])(\d|S|R|D2|BL)$/.exec(code);
  if (m) {
    const [, colour, rest] = m;
    const colourName = COLOURS[colour].name;
    if (/^\d$/.test(rest)) {
      return { code, colour, kind: "number", name: `${colourName} ${rest}`, centre: rest, corner: rest };
    }
    const k = UNO_KINDS[rest];
    return { code, colour, kind: k.kind, name: `${colourName} ${k.word}`, centre: k.centre, icon: k.icon,
      corner: rest === "D2" ? "+2" : rest === "BL" ? "" : rest === "S" ? "⊘" : "⇄" };
  }
  m = /^(A|[2-9]|10|J|Q|K)([SHDC])$/.exec(code);
  if (m) {
    const [, rank, suit] = m;
    const rankName = RANK_NAMES[rank] || rank;
    const wild = rank === "J" || rank === "Q" || rank === "K";
    return { code, colour: wild ? null : suit, suit, kind: wild ? "face" : "pip", rank,
      name: `${rankName} of ${COLOURS[suit].name}`, centre: rank, corner: rank };
  }
  return { code, colour: null, kind: "unknown", name: `Card ${code}`, centre: code, corner: "?" };
}

export function colourName(letter) {
  return COLOURS[letter] ? COLOURS[letter].name : "no colour yet";
}

export function colourMark(letter) {
  return COLOURS[letter] ? COLOURS[letter].mark : "";
}

function span(className, text) {
  const el = document.createElement("span");
  el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/**
 * Names a card: a picture (role img) by its aria-label; a button by its text, a visually hidden span, so
 * the name is the button's own content and holds what it shows (its glyphs are hidden from assistive
 * technology): speech input users say "Red 7" to press it.
 */
function name(el, button, text) {
  if (button) el.appendChild(span("visually-hidden card-name", text));
  else el.setAttribute("aria-label", text);
}

function corner(info, where) {
  const el = span(`card-corner ${where}`);
  el.setAttribute("aria-hidden", "true");
  if (info.corner) el.appendChild(span("card-rank", info.corner));
  const mark = info.suit ? COLOURS[info.suit].mark : colourMark(info.colour);
  if (mark) el.appendChild(span("card-mark", mark));
  return el;
}

/**
 * A card element. Options: `button` (a focusable <button>), `playable`/`dimmed`, `size` ("sm"), `extra`
 * (appended to its name, e.g. ", playable").
 */
export function cardElement(code, { button = false, playable = false, dimmed = false, size = "", extra = "" } = {}) {
  const info = describeCard(code);
  const el = document.createElement(button ? "button" : "div");
  if (button) el.type = "button";
  else el.setAttribute("role", "img");
  el.className = "card";
  el.classList.add(`kind-${info.kind}`, info.suit ? "deck-cards" : "deck-uno");
  if (info.suit) el.classList.add(`suit-${info.suit}`);
  if (info.colour) el.classList.add(`colour-${info.colour}`);
  else el.classList.add("colour-wild");
  if (size) el.classList.add(`card-${size}`);
  if (playable) el.classList.add("playable");
  if (dimmed) el.classList.add("dimmed");
  el.dataset.card = code;
  name(el, button, info.name + extra);
  el.title = info.name;
  el.appendChild(corner(info, "tl"));
  const face = span("card-face");
  face.setAttribute("aria-hidden", "true");
  const oval = span("card-oval");
  if (info.suit && info.kind === "pip") {
    oval.appendChild(span("card-big", info.rank));
    oval.appendChild(span("card-suit", COLOURS[info.suit].mark));
  } else if (info.suit) {
    oval.appendChild(span("card-big", info.rank));
    oval.appendChild(span("card-suit", COLOURS[info.suit].mark));
    oval.appendChild(span("card-note", "wild"));
  } else {
    if (info.icon) {
      const icon = span(`card-icon icon-${info.icon}`);
      icon.innerHTML = ICONS[info.icon];
      oval.appendChild(icon);
    }
    if (info.centre) oval.appendChild(span(info.icon ? "card-big over" : "card-big", info.centre));
  }
  face.appendChild(oval);
  el.appendChild(face);
  el.appendChild(corner(info, "br"));
  return el;
}

/** The back of a card (draw pile, opponents' hands). */
export function cardBack({ button = false, label = "Draw pile", size = "" } = {}) {
  const el = document.createElement(button ? "button" : "div");
  if (button) el.type = "button";
  else el.setAttribute("role", "img");
  el.className = "card card-back";
  if (size) el.classList.add(`card-${size}`);
  name(el, button, label);
  const face = span("card-face");
  face.setAttribute("aria-hidden", "true");
  face.appendChild(span("card-oval", "8"));
  el.appendChild(face);
  return el;
}

/** A colour swatch with its mark and name, for the current colour and the colour chooser. */
export function colourChip(letter, { withName = true } = {}) {
  const el = span(`colour-chip colour-${letter || "none"}`);
  el.appendChild(span("chip-mark", colourMark(letter) || "?"));
  if (withName) el.appendChild(span("chip-name", colourName(letter)));
  return el;
}
