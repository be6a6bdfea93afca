// The "special cards" sheet of the table page (templates/games/_cards_sheet.html, written on the server
// from the table's rules): a dialog one tap away; each entry gets a picture of its card on first opening.

import { cardElement } from "./cards.js";

export function openCardsSheet(dialog) {
  if (!dialog) return;
  for (const spot of dialog.querySelectorAll(".sheet-picture[data-card]:empty")) {
    spot.appendChild(cardElement(spot.dataset.card, { size: "sm" }));
  }
  dialog.showModal();
  dialog.querySelector(".btn-close")?.focus();
}
