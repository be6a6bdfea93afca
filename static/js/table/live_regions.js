// What a screen reader hears at the table (templates/games/table.html): the turn sentence (#turn-text)
// and the log (#log-list) are polite live regions. Each is written so that only what is new is read out:
// the sentence only when it changes, the log one new line at a time.

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

/**
 * The turn sentence, with `hidden` words after it for a screen reader only (what your hand holds); a
 * redraw that changes neither is not written, so it is not read out again.
 */
export function say(box, words, hidden) {
  const said = `${words}|${hidden}`;
  if (box.dataset.said === said) return;
  box.dataset.said = said;
  const extra = document.createElement("span");
  extra.className = "visually-hidden";
  extra.textContent = ` ${hidden}`;
  box.replaceChildren(words, ...(hidden ? [extra] : []));
}

/** Your hand in words, for your turn: "You hold 7 cards, 2 of them playable." */
export function handWords(model, legal) {
  const hand = (model.view && model.view.hand) || [];
  const playable = hand.filter((code) => legal.plays.has(code)).length;
  const cards = `${hand.length} card${hand.length === 1 ? "" : "s"}`;
  return `You hold ${cards}, ${playable ? `${playable} of them playable` : "none playable"}.`;
}

/**
 * The log, newest first (`lines`). With `added` (how many lines are new at the top) only those are
 * inserted and the oldest dropped, so a screen reader hears what was just played, not the whole log
 * again; a whole new log (`added` null: the table was opened, or sent whole after a gap) is written with
 * the region silenced.
 */
export function renderLog(lines, added = null) {
  const list = document.getElementById("log-list");
  if (!list) return;
  if (added === null) {
    list.setAttribute("aria-live", "off");
    list.replaceChildren(...lines.map(item));
    setTimeout(() => list.setAttribute("aria-live", "polite"), 0);
    return;
  }
  list.prepend(...lines.slice(0, added).map(item));
  while (list.children.length > lines.length) list.lastElementChild.remove();
}
