// Telling a player it is their turn when they are looking elsewhere: the document title ("● Your turn –
// …"), a favicon with a badge drawn on a canvas, and a short tone that can be switched off (the choice
// is kept in localStorage). Browsers let a page make sound only after a tap or a key press on it: until
// then a "Tap to turn on sound" prompt asks for one, so the tone works from the first turn.

const SOUND_KEY = "ocho.table.sound";

export function soundEnabled(storage = window.localStorage) {
  try {
    return storage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

export function setSoundEnabled(on, storage = window.localStorage) {
  try {
    storage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

function badgeIcon(colour) {
  const canvas = document.createElement("canvas");
  canvas.width = 64;
  canvas.height = 64;
  const g = canvas.getContext("2d");
  if (!g) return null;
  // A card...
  g.fillStyle = "#212529";
  g.beginPath();
  g.roundRect(10, 4, 40, 56, 8);
  g.fill();
  g.fillStyle = "#ffffff";
  g.font = "bold 30px sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText("8", 30, 33);
  // ...with a badge.
  g.fillStyle = colour;
  g.beginPath();
  g.arc(46, 18, 16, 0, Math.PI * 2);
  g.fill();
  g.lineWidth = 4;
  g.strokeStyle = "#ffffff";
  g.stroke();
  return canvas.toDataURL("image/png");
}

export class TurnSignal {
  constructor({ baseTitle, favicon = document.getElementById("favicon"), toggle = null, prompt = null }) {
    this.baseTitle = baseTitle;
    this.favicon = favicon;
    this.originalIcon = favicon ? favicon.href : null;
    this.originalType = favicon ? favicon.type : null;
    this.badge = null;
    this.wasMyTurn = false;
    this.audio = null;
    this.beeps = 0; // tones played (for tests and the curious)
    this.toggle = toggle;
    this.prompt = prompt;
    if (toggle) {
      this.showToggle();
      toggle.addEventListener("click", () => {
        setSoundEnabled(!soundEnabled());
        this.showToggle();
        if (soundEnabled()) this.beep({ asked: true });
        this.showPrompt();
      });
    }
    if (prompt) {
      prompt.addEventListener("click", () => {
        this.unlock();
        this.beep({ asked: true }); // the tap itself says the sound works
      });
    }
    // Any tap or key press on the page also unlocks the sound.
    const unlock = () => {
      this.unlock();
      if (this.unlocked()) {
        window.removeEventListener("pointerdown", unlock, true);
        window.removeEventListener("keydown", unlock, true);
      }
    };
    window.addEventListener("pointerdown", unlock, true);
    window.addEventListener("keydown", unlock, true);
    // A player's page makes its audio context at once: where the browser allows sound without a tap it
    // runs and no prompt shows; elsewhere it waits, suspended, for the tap the prompt asks for.
    if (prompt && soundEnabled()) this.ensureAudio();
    this.showPrompt();
  }

  /** Whether the browser lets this page play sound now. */
  unlocked() {
    return Boolean(this.audio && this.audio.state === "running");
  }

  /** Within a tap or key press: create or resume the audio context (the browser allows it now). */
  unlock() {
    const ctx = this.ensureAudio();
    if (!ctx) return;
    if (ctx.state !== "running") {
      ctx.resume().then(() => this.showPrompt(), () => this.showPrompt());
    }
    this.showPrompt();
  }

  /** The prompt shows while the sound is switched on but the browser still blocks it. */
  showPrompt() {
    if (!this.prompt) return;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    this.prompt.hidden = !Ctx || !soundEnabled() || this.unlocked();
  }

  soundState() {
    return { context: this.audio ? this.audio.state : "none", beeps: this.beeps, enabled: soundEnabled(),
      prompt: Boolean(this.prompt && !this.prompt.hidden) };
  }

  showToggle() {
    const on = soundEnabled();
    this.toggle.setAttribute("aria-pressed", on ? "true" : "false");
    this.toggle.textContent = on ? "♪ Sound on" : "♪ Sound off";
    this.toggle.title = on ? "A short tone plays when it becomes your turn" : "No tone on your turn";
  }

  ensureAudio() {
    if (this.audio) return this.audio;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    try {
      this.audio = new Ctx();
      this.audio.addEventListener("statechange", () => this.showPrompt());
    } catch {
      this.audio = null;
    }
    return this.audio;
  }

  /** One tone; `asked`: the player tapped for it (the prompt or the switch), so it plays however long the
   * browser takes to start the sound, where a turn's tone that comes late is left out. */
  beep({ asked = false } = {}) {
    const ctx = this.ensureAudio();
    if (!ctx) return;
    if (ctx.state === "running") {
      this.tone(ctx);
      return;
    }
    // Blocked until a tap (the prompt asks for one); within a tap, resuming is allowed: play then, but
    // never a turn's tone long after the turn came.
    const since = Date.now();
    ctx.resume().then(() => { if (asked || Date.now() - since < 1000) this.tone(ctx); }, () => {});
  }

  tone(ctx) {
    this.beeps += 1;
    const t = ctx.currentTime + 0.01;
    // Two short rising notes, quiet.
    [[660, 0], [880, 0.13]].forEach(([freq, offset]) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t + offset);
      gain.gain.exponentialRampToValueAtTime(0.18, t + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + offset + 0.12);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t + offset);
      osc.stop(t + offset + 0.14);
    });
  }

  /** Called after every render: `myTurn` and a short text for the title when it is not. */
  update(myTurn, { gameOver = false } = {}) {
    if (myTurn) {
      document.title = `● Your turn – ${this.baseTitle}`;
      this.setIcon("#dc3545");
      if (!this.wasMyTurn && soundEnabled()) this.beep();
    } else {
      document.title = gameOver ? `Game over – ${this.baseTitle}` : this.baseTitle;
      this.setIcon(null);
    }
    document.documentElement.dataset.myTurn = myTurn ? "1" : "0";
    this.wasMyTurn = myTurn;
  }

  setIcon(colour) {
    if (!this.favicon) return;
    if (!colour) {
      if (this.originalIcon && this.favicon.href !== this.originalIcon) {
        this.favicon.type = this.originalType;
        this.favicon.href = this.originalIcon;
      }
      return;
    }
    if (!this.badge) this.badge = badgeIcon(colour);
    if (this.badge && this.favicon.href !== this.badge) {
      this.favicon.type = "image/png";
      this.favicon.href = this.badge;
    }
  }
}
