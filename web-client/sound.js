// Sounds synthesised with WebAudio (no files to fetch): move, capture, check, game start, game end,
// low time, your turn. `play(name)` respects the "Sounds" setting; every sound played is logged in
// `soundLog` (tests count them). clock.js calls play('lowtime').
import { prefs } from './settings.js';

export const soundLog = [];
let ctx = null;

// Browsers start audio only after a user gesture: the context is made (or resumed) on the first
// one and kept.
function context() {
    if (!ctx) {
        const Ctx = window.AudioContext || window.webkitAudioContext;
        if (!Ctx) {
            return null;
        }
        try {
            ctx = new Ctx();
        } catch {
            return null;
        }
    }
    if (ctx.state === 'suspended') {
        ctx.resume().catch(() => {});
    }
    return ctx;
}
for (const type of ['pointerdown', 'keydown']) {
    window.addEventListener(type, () => context(), { capture: true, passive: true });
}

// One note: a shaped oscillator (or filtered noise for the woody knock of a move).
function note(ac, { at = 0, freq = 440, dur = 0.08, type = 'sine', gain = 0.25, noise = false }) {
    const t = ac.currentTime + at;
    const amp = ac.createGain();
    amp.gain.setValueAtTime(0.0001, t);
    amp.gain.exponentialRampToValueAtTime(gain, t + 0.005);
    amp.gain.exponentialRampToValueAtTime(0.0001, t + dur);
    amp.connect(ac.destination);
    let source;
    if (noise) {
        const buffer = ac.createBuffer(1, Math.ceil(ac.sampleRate * dur), ac.sampleRate);
        const data = buffer.getChannelData(0);
        for (let i = 0; i < data.length; i++) {
            data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
        }
        source = ac.createBufferSource();
        source.buffer = buffer;
        const filter = ac.createBiquadFilter();
        filter.type = 'bandpass';
        filter.frequency.value = freq;
        filter.Q.value = 1.2;
        source.connect(filter);
        filter.connect(amp);
    } else {
        source = ac.createOscillator();
        source.type = type;
        source.frequency.setValueAtTime(freq, t);
        source.connect(amp);
    }
    source.start(t);
    source.stop(t + dur + 0.02);
}

const SOUNDS = {
    move: [{ noise: true, freq: 900, dur: 0.07, gain: 0.6 }, { freq: 190, dur: 0.06, gain: 0.18 }],
    capture: [{ noise: true, freq: 700, dur: 0.09, gain: 0.8 }, { freq: 140, dur: 0.09, gain: 0.25 },
              { at: 0.05, noise: true, freq: 1400, dur: 0.05, gain: 0.4 }],
    check: [{ freq: 880, dur: 0.1, type: 'triangle' }, { at: 0.11, freq: 660, dur: 0.14, type: 'triangle' }],
    start: [{ freq: 523, dur: 0.1, type: 'triangle' }, { at: 0.1, freq: 659, dur: 0.1, type: 'triangle' },
            { at: 0.2, freq: 784, dur: 0.18, type: 'triangle' }],
    end: [{ freq: 784, dur: 0.12, type: 'triangle' }, { at: 0.12, freq: 659, dur: 0.12, type: 'triangle' },
          { at: 0.24, freq: 523, dur: 0.25, type: 'triangle' }],
    lowtime: [{ freq: 1320, dur: 0.06, type: 'square', gain: 0.08 }, { at: 0.15, freq: 1320, dur: 0.06, type: 'square', gain: 0.08 },
              { at: 0.3, freq: 1320, dur: 0.06, type: 'square', gain: 0.08 }],
    notify: [{ freq: 660, dur: 0.08 }, { at: 0.09, freq: 990, dur: 0.12 }],
};
export const SOUND_NAMES = Object.keys(SOUNDS);

// Plays a sound by name when sounds are on; returns whether it was played.
export function play(name) {
    if (!SOUNDS[name] || !prefs.on('sound')) {
        return false;
    }
    soundLog.push(name);
    const ac = context();
    if (ac) {
        for (const n of SOUNDS[name]) {
            note(ac, n);
        }
    }
    return true;
}
