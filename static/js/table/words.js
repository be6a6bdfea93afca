// Engine events (games/engine: play.py, deal.py, drawing.py, game.py) told in words for the table's log:
// "Asha played Red Draw 2", "Ravi drew 2 cards". Private parts (cards drawn, X-Ray reveals, a
// challenged hand) appear only when the server sent them to this viewer.

import { colourName, describeCard } from "./cards.js";

const DRAW_REASONS = {
  draw_card: "",
  first_card: " (the first card)",
  uno_penalty: " as a UNO penalty",
  dead_red: " (Dead Red)",
  boo_blue: " (Boo Blue)",
  challenge_guilty: " (caught by the challenge)",
  challenge_lost: " (lost the challenge)",
};

function cardName(code) {
  return describeCard(code).name;
}

function cardList(codes) {
  return codes.map(cardName).join(", ");
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * @param {object} event an engine event as this viewer may see it ({kind, ...fields})
 * @param {(seat:number)=>string} who the display name of a seat of the hand (events use hand seats)
 * @param {(seat:number)=>string} whoGame the same for a game seat (`hand_scored` uses game seats)
 * @returns {string|null} a sentence, or null for events not worth a line
 */
export function describeEvent(event, who, whoGame = who) {
  const e = event || {};
  const names = (seats) => (seats && seats.length ? seats.map(who).join(", ") : "nobody");
  switch (e.kind) {
    case "dealer_draw":
      return `Cards drawn for the deal: ${(e.draws || []).map(([s, c]) => `${who(s)} ${cardName(c)}`).join(", ")}`;
    case "hand_started":
      return `New hand: ${who(e.dealer)} deals ${plural(e.hand_size, "card")} each`;
    case "dealt":
      return e.cards ? `${who(e.seat)} got ${cardList(e.cards)}` : null;
    case "first_card_returned":
      return `${cardName(e.card)} turned up first and goes back into the deck`;
    case "first_card":
      return `First card: ${cardName(e.card)}`;
    case "skipped":
      return `${who(e.seat)} is skipped`;
    case "reversed":
      return e.seat === null || e.seat === undefined
        ? `The first card reverses the direction`
        : `${who(e.seat)} reversed the direction`;
    case "drew": {
      const cards = e.cards ? `: ${cardList(e.cards)}` : "";
      return `${who(e.seat)} drew ${plural(e.count, "card")}${DRAW_REASONS[e.reason] ?? ""}${cards}`;
    }
    case "reshuffled":
      return `The discard pile is shuffled into a new draw pile (${plural(e.count, "card")})`;
    case "played": {
      const info = describeCard(e.card);
      const chose = !info.colour && e.colour ? ` and chose ${colourName(e.colour)}` : "";
      return `${who(e.seat)} played ${info.name}${chose}`;
    }
    case "ocho":
      return `${who(e.seat)}: “Ocho!”`;
    case "identical":
      return `${who(e.seat)} played an identical card: the next player is skipped`;
    case "stacked":
      return `${who(e.seat)} stacked: ${plural(e.total, "card")} now pending for ${who(e.to)}`;
    case "shielded":
      return `${who(e.seat)} shielded ${plural(e.total, "card")} back to ${who(e.to)}`;
    case "xray": {
      const seen = Array.isArray(e.revealed)
        ? `: ${e.revealed.map(([s, c]) => `${who(s)} holds ${cardName(c)}`).join("; ")}`
        : "";
      return `${who(e.seat)} used X-Ray on ${names(e.of)}${seen}`;
    }
    case "dead_red":
      return `Dead Red! ${e.hit && e.hit.length ? `${names(e.hit)} hold no red card and draw 2` : "Everyone holds a red card"}`;
    case "boo_blue":
      return `Boo Blue! ${names(e.hit)} with the fewest cards draw 2`;
    case "passed":
      return {
        kept: `${who(e.seat)} kept the card and passed`,
        nothing_to_draw: `${who(e.seat)} passed: nothing left to draw`,
      }[e.reason] || `${who(e.seat)} passed`;
    case "uno":
      return `${who(e.seat)} called UNO!${e.self_catch ? " (just in time)" : ""}`;
    case "caught":
      return `${who(e.seat)} caught ${who(e.target)} without UNO: ${who(e.target)} draws ${e.penalty}`;
    case "challenged": {
      const hand = e.hand ? ` (hand: ${e.hand.length ? cardList(e.hand) : "empty"})` : "";
      return `${who(e.seat)} challenged ${who(e.of)}’s Wild Draw Four: ${e.guilty ? "guilty" : "not guilty"}${hand}`;
    }
    case "takeover_started":
      return `${who(e.seat)} missed ${plural(e.missed_turns, "turn")} in a row: a bot plays for them until they are back`;
    case "takeover_ended":
      return `${who(e.seat)} is back`;
    case "game_paused":
      return "The organizer paused the game: the clock is stopped";
    case "game_resumed":
      return "The organizer resumed the game: the clock runs again";
    case "game_closed":
      return "The organizer finished the game";
    case "colour_chosen":
      return `${who(e.seat)} chose ${colourName(e.colour)}`;
    case "hand_over":
      return e.blocked
        ? `Nobody can play: the hand is blocked; ${who(e.winner)} wins it`
        : `${who(e.winner)} went out and wins the hand`;
    case "hand_scored": {
      const won = e.points_won && e.winner !== undefined ? e.points_won[e.winner] : null;
      let text = `Hand ${Number(e.number)}: ${whoGame(e.winner)} scores ${won ?? 0} points`;
      if (e.game_over) text += `. Game over: ${(e.winners || []).map(whoGame).join(", ")} won`;
      return text;
    }
    default:
      if (typeof e.text === "string") return e.text;
      if (typeof e.kind === "string") {
        const subject = Number.isInteger(e.seat) ? `${who(e.seat)}: ` : "";
        return `${subject}${e.kind.replaceAll("_", " ")}`;
      }
      return null;
  }
}
