// A partner rotation's block ends after four hands; the next block is another game, at another live
// table (other partners, with eight players maybe another table of four). When the game on this page is
// over, ask the server where the next block is played (tournament.views.live_tables.next_table) and show the way:
// a player gets their own next table, a spectator every table of the next block. "waiting" means the
// next block starts once every table of this one has finished: ask again a little later.

const WAIT_MS = 5000;
const RETRY_MS = 10000;
const MAX_FAILURES = 30;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class NextBlock {
  constructor(url, box) {
    this.url = url;
    this.box = box;
    this.started = false;
    this.failures = 0;
    this.timer = null;
  }

  /** Call whenever the game is seen over; the first call starts asking, later ones do nothing. */
  gameOver() {
    if (!this.url || !this.box || this.started) return;
    this.started = true;
    this.ask();
  }

  async ask() {
    let data;
    try {
      const response = await fetch(this.url, { credentials: "same-origin", cache: "no-store",
        headers: { Accept: "application/json" } });
      data = await response.json();
      if (!response.ok) {
        this.show([el("span", "", data.error || "Where the next block is played could not be found.")]);
        return;
      }
    } catch {
      this.failures += 1;
      if (this.failures < MAX_FAILURES) this.timer = setTimeout(() => this.ask(), RETRY_MS);
      return;
    }
    this.failures = 0;
    this.render(data);
    if (data.status === "waiting") this.timer = setTimeout(() => this.ask(), WAIT_MS);
  }

  render(data) {
    if (data.status === "ready" && data.tables.length) {
      const parts = [el("strong", "", `Next block (${data.block} of ${data.blocks}):`)];
      for (const table of data.tables) {
        const link = el("a", "btn btn-sm btn-primary ms-2 next-block-link");
        link.href = table.url;
        link.textContent = data.mine ? `${table.label} — go` : `${table.label} — watch`;
        parts.push(link);
        if (table.partner) parts.push(el("span", "ms-2", `your partner: ${table.partner}`));
      }
      this.show(parts, "success");
    } else if (data.status === "waiting") {
      this.show([el("span", "", data.message)], "info");
    } else if (data.status === "over") {
      const parts = [el("span", "", data.message)];
      if (data.results_url) {
        const link = el("a", "ms-2", "See the rotation's scores");
        link.href = data.results_url;
        parts.push(link);
      }
      this.show(parts, "secondary");
    }
  }

  show(parts, kind = "warning") {
    this.box.className = `alert alert-${kind} py-2 mb-2`;
    this.box.replaceChildren(...parts);
    this.box.hidden = false;
  }
}
