// The replay page: steps through the frames games/replay.py built (each hand's deal, then the table after
// each move). Plain module, no inline script (the site's Content-Security-Policy): the data comes from
// the page's <script type="application/json" id="replay-data">.
import { cardElement, colourName } from "./table/cards.js";

const dataNode = document.getElementById("replay-data");
if (dataNode) {
  const replay = JSON.parse(dataNode.textContent);
  const select = document.getElementById("replay-hand");
  const $ = (id) => document.getElementById(id);
  let hand = 0;
  let step = 0;

  replay.hands.forEach((h, i) => {
    const option = document.createElement("option");
    option.value = String(i);
    option.textContent = `Hand ${h.number}`;
    select.append(option);
  });

  function render() {
    const h = replay.hands[hand];
    if (!h) {
      $("replay-label").textContent = "No hand has been dealt.";
      return;
    }
    const frame = h.frames[step];
    const table = frame.table;
    $("replay-step").textContent = `Step ${step + 1} of ${h.frames.length}`;
    $("replay-label").textContent = frame.label;
    $("replay-top").replaceChildren(cardElement(table.top, { size: "sm" }));
    $("replay-colour").textContent = table.colour ? colourName(table.colour) : "";
    const turnName = table.phase === "over" ? "Hand over" : `${replay.seats[h.seats[table.turn]]} to play`;
    $("replay-turn").textContent = turnName;
    const rows = table.players.map((p) => {
      const li = document.createElement("li");
      li.className = "replay-seat";
      if (p.seat === table.turn && table.phase !== "over") li.classList.add("on-turn");
      const name = document.createElement("div");
      const gameSeat = h.seats[p.seat];
      name.textContent = `${replay.seats[gameSeat]} · ${p.cards} card${p.cards === 1 ? "" : "s"} · ${frame.totals[gameSeat]} points`;
      li.append(name);
      if (p.hand) {
        const cards = document.createElement("div");
        cards.className = "replay-cards";
        cards.append(...p.hand.map((code) => cardElement(code, { size: "sm" })));
        li.append(cards);
      }
      return li;
    });
    $("replay-seats").replaceChildren(...rows);
    $("replay-seed").textContent = h.seed ? `Seed ${h.seed}, salt ${h.salt}` : "The seed is shown once the hand is over.";
    $("replay-prev").disabled = $("replay-first").disabled = step === 0;
    $("replay-next").disabled = $("replay-last").disabled = step === h.frames.length - 1;
  }

  function go(to) {
    const frames = replay.hands[hand] ? replay.hands[hand].frames.length : 1;
    step = Math.max(0, Math.min(frames - 1, to));
    render();
  }

  select.addEventListener("change", () => { hand = Number(select.value); step = 0; render(); });
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev").addEventListener("click", () => go(step - 1));
  $("replay-next").addEventListener("click", () => go(step + 1));
  $("replay-last").addEventListener("click", () => go(Infinity));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("select, input, textarea")) return;
    if (event.key === "ArrowRight") go(step + 1);
    if (event.key === "ArrowLeft") go(step - 1);
  });
  render();
}
