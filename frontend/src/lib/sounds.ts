/**
 * The table's sounds, synthesised with Web Audio (no files to download): your
 * turn, your time bank starting, and a pot you won. Silent unless the player
 * turned sound on (a preference, off by default), so tests never hear a thing
 * unless they ask. Each cue played is also announced as a "showdown:sound"
 * window event (its detail is the cue), which is how a test knows one played.
 */

export type SoundCue = "turn" | "bank" | "win";
export const SOUND_EVENT = "showdown:sound";

interface Tone {
  /** Hz */
  freq: number;
  /** seconds after the cue starts */
  at: number;
  /** seconds */
  length: number;
  type: OscillatorType;
  gain: number;
}

// A rising two-note chime (your turn), a low double tick (the time bank), a major arpeggio (a win).
export const CUES: Record<SoundCue, Tone[]> = {
  turn: [
    { freq: 660, at: 0, length: 0.12, type: "sine", gain: 0.22 },
    { freq: 880, at: 0.13, length: 0.18, type: "sine", gain: 0.22 },
  ],
  bank: [
    { freq: 330, at: 0, length: 0.08, type: "triangle", gain: 0.3 },
    { freq: 330, at: 0.22, length: 0.08, type: "triangle", gain: 0.3 },
  ],
  win: [
    { freq: 523.25, at: 0, length: 0.14, type: "triangle", gain: 0.2 },
    { freq: 659.25, at: 0.1, length: 0.14, type: "triangle", gain: 0.2 },
    { freq: 783.99, at: 0.2, length: 0.14, type: "triangle", gain: 0.2 },
    { freq: 1046.5, at: 0.3, length: 0.3, type: "triangle", gain: 0.2 },
  ],
};

type AudioContextClass = typeof AudioContext;

function audioContextClass(): AudioContextClass | null {
  if (typeof window === "undefined") return null;
  const w = window as unknown as { AudioContext?: AudioContextClass; webkitAudioContext?: AudioContextClass };
  return w.AudioContext ?? w.webkitAudioContext ?? null;
}

let context: AudioContext | null = null;

/**
 * Create (or wake) the audio context. Browsers only let a page start audio from a
 * user gesture, so the sound switch calls this from its click.
 */
export function unlockSound(): AudioContext | null {
  const Ctx = audioContextClass();
  if (!Ctx) return null;
  context ??= new Ctx();
  if (context.state === "suspended") void context.resume().catch(() => undefined);
  return context;
}

/** Play one cue now (nothing where the browser has no Web Audio). */
export function playCue(cue: SoundCue): void {
  const ctx = unlockSound();
  if (ctx) {
    const start = ctx.currentTime + 0.01;
    for (const tone of CUES[cue]) {
      const osc = ctx.createOscillator();
      const amp = ctx.createGain();
      osc.type = tone.type;
      osc.frequency.value = tone.freq;
      // A short attack and an exponential fade: no clicks at either end.
      const t0 = start + tone.at;
      amp.gain.setValueAtTime(0.0001, t0);
      amp.gain.exponentialRampToValueAtTime(tone.gain, t0 + 0.01);
      amp.gain.exponentialRampToValueAtTime(0.0001, t0 + tone.length);
      osc.connect(amp).connect(ctx.destination);
      osc.start(t0);
      osc.stop(t0 + tone.length + 0.02);
    }
  }
  window.dispatchEvent(new CustomEvent<SoundCue>(SOUND_EVENT, { detail: cue }));
}
