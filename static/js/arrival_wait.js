// The arrival countdown of a tournament table: "Waiting for Asha to arrive: 4:32" (docs/rules.md).
// A seat's turn clock starts when its player first opens the table, or when this countdown ends; until
// then nothing is played for them. Reads the table page's live model (window.ochoTable, kept by
// static/js/table/table.js from the server's `game.arrival_until` and each seat's `arrived`) and ticks.

const box = document.getElementById("arrival-wait");

function names(list) {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

function render() {
  const model = window.ochoTable && window.ochoTable.model;
  const game = model && model.game;
  if (!box || !game) return;
  const until = game.arrival_until ? Date.parse(game.arrival_until) : NaN;
  const left = Math.ceil((until - (Date.now() + (model.clockOffset || 0))) / 1000);
  const waiting = (game.seats || []).filter((seat) => seat.arrived === false && !seat.bot);
  const playing = game.status === "playing" || game.status === "between_hands";
  if (!playing || !waiting.length || !(left > 0)) {
    box.hidden = true;
    return;
  }
  const mine = model.seat !== null && model.seat !== undefined;
  const who = names(waiting.map((seat) => (mine && seat.seat === model.seat ? "you" : seat.name)));
  box.textContent = `Waiting for ${who} to arrive: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  box.title = "A player's turn clock starts when they open this table, or when this countdown ends.";
  box.hidden = false;
}

if (box) setInterval(render, 500);
