// The summary at the end of a hand (shown in the table's banner): who went out, the points each player was
// left holding, what the hand scored and the running totals, all from `game.last_result` (game seats).

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

/** The hand's summary from `game.last_result` (game seats): who went out, the points each player was
 * left holding (points only: no card of another hand is shown), what the hand scored, running totals. */
export function handSummary(game, ctx) {
  const last = game && game.last_result;
  if (!last) return null;
  const box = el("div", "hand-summary");
  box.id = "hand-summary";
  box.dataset.hand = String(last.number);
  const winner = last.winner === null || last.winner === undefined ? null : ctx.whoGame(last.winner);
  let head;
  if (last.blocked) head = `Hand ${last.number}: blocked — ${winner || "nobody"} wins with the fewest points`;
  else head = `Hand ${last.number}: ${winner || "nobody"} went out`;
  box.appendChild(el("strong", "summary-head", head));
  const table = el("table", "summary-table");
  const thead = el("thead");
  const hr = el("tr");
  for (const title of ["Player", "Points left", "Scored", "Total"]) {
    const th = el("th", "", title);
    th.scope = "col";
    hr.appendChild(th);
  }
  thead.appendChild(hr);
  table.appendChild(thead);
  const body = el("tbody");
  const count = Math.max((last.totals || []).length, (last.points_left || []).length);
  for (let seat = 0; seat < count; seat += 1) {
    const tr = el("tr");
    tr.dataset.seat = String(seat);
    const th = el("th", "", ctx.whoGame(seat));
    th.scope = "row";
    if (seat === last.winner) {
      tr.classList.add("went-out");
      th.appendChild(el("span", "tag tag-win ms-1", last.blocked ? "fewest" : "went out"));
    }
    tr.appendChild(th);
    const left = (last.points_left || [])[seat];
    const won = (last.points_won || [])[seat];
    tr.appendChild(el("td", "summary-left", left === null || left === undefined ? "–" : String(left)));
    tr.appendChild(el("td", "summary-won", won === null || won === undefined ? "–" : `+${won}`));
    tr.appendChild(el("td", "summary-total", String((last.totals || [])[seat] ?? 0)));
    body.appendChild(tr);
  }
  table.appendChild(body);
  box.appendChild(table);
  return box;
}
