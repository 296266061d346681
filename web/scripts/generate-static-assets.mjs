// Writes the app icons (PNG) and notification sounds (WAV) in web/public without any network or
// image/audio tooling: PNGs are encoded with zlib, WAVs are plain PCM. Run: node web/scripts/generate-static-assets.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');

// ---- PNG ---------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const TILE = [0x1d, 0x4e, 0xd8];
const BELL = [0xfb, 0xbf, 0x24];

function segmentDistance(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

const TICKER = [[12, 27], [17.5, 27], [20.5, 21], [24.5, 31], [27.5, 23.5], [30.5, 27], [36, 27]];

/** The logo in its 48-unit design space: 'tile', 'bell' or null (transparent). */
function logoAt(x, y, fullBleed) {
  // Maskable icons fill the square and keep the artwork inside the 80 % safe zone.
  if (fullBleed) {
    x = 24 + (x - 24) / 0.75;
    y = 24 + (y - 24) / 0.75;
  } else {
    const r = 12;
    const cx = Math.min(Math.max(x, r), 48 - r);
    const cy = Math.min(Math.max(y, r), 48 - r);
    if (x < 0 || y < 0 || x > 48 || y > 48 || Math.hypot(x - cx, y - cy) > r) return null;
  }
  for (let i = 1; i < TICKER.length; i++) {
    const [ax, ay] = TICKER[i - 1];
    const [bx, by] = TICKER[i];
    if (segmentDistance(x, y, ax, ay, bx, by) <= 1.3) return 'tile';
  }
  const knob = Math.hypot(x - 24, y - 10) <= 2.5 || (x >= 21.5 && x <= 26.5 && y >= 10 && y <= 12.5);
  const dome = (y <= 22.3 && Math.hypot(x - 24, y - 22.3) <= 11) || (y > 22.3 && y <= 29.5 && x >= 13 && x <= 35);
  const flareHalf = 11 + ((y - 29.5) / 4) * 3.2;
  const flare = y > 29.5 && y <= 33.5 && Math.abs(x - 24) <= flareHalf;
  const rim = y > 33.5 && y <= 35.5 && x >= 10 && x <= 38;
  const clapper = y >= 38 && Math.hypot(x - 24, y - 38) <= 4.5;
  return knob || dome || flare || rim || clapper ? 'bell' : 'tile';
}

function renderIcon(size, fullBleed) {
  const rgba = Buffer.alloc(size * size * 4);
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = ((px + (sx + 0.5) / samples) / size) * 48;
          const y = ((py + (sy + 0.5) / samples) / size) * 48;
          const hit = logoAt(x, y, fullBleed);
          if (!hit) continue;
          const colour = hit === 'bell' ? BELL : TILE;
          r += colour[0]; g += colour[1]; b += colour[2]; a += 255;
        }
      }
      const n = samples * samples;
      const covered = a / 255;
      const offset = (py * size + px) * 4;
      rgba[offset] = covered ? Math.round(r / covered) : 0;
      rgba[offset + 1] = covered ? Math.round(g / covered) : 0;
      rgba[offset + 2] = covered ? Math.round(b / covered) : 0;
      rgba[offset + 3] = Math.round(a / n);
    }
  }
  return encodePng(size, rgba);
}

// ---- WAV ---------------------------------------------------------------------------------

const SAMPLE_RATE = 22050;

/** Notes as [frequency Hz, start s, duration s]; each with a soft attack and exponential decay. */
function renderTones(notes, totalSeconds, volume = 0.45) {
  const count = Math.round(totalSeconds * SAMPLE_RATE);
  const pcm = Buffer.alloc(count * 2);
  for (let i = 0; i < count; i++) {
    const t = i / SAMPLE_RATE;
    let value = 0;
    for (const [frequency, start, duration] of notes) {
      const local = t - start;
      if (local < 0 || local > duration) continue;
      const attack = Math.min(1, local / 0.01);
      const release = Math.min(1, (duration - local) / 0.02);
      const decay = Math.exp(-local * 5);
      // A fundamental and a quiet octave make it a chime rather than a pure beep.
      value += (Math.sin(2 * Math.PI * frequency * local) + 0.3 * Math.sin(4 * Math.PI * frequency * local)) * attack * release * decay;
    }
    pcm.writeInt16LE(Math.round(Math.max(-1, Math.min(1, value * volume)) * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

const SOUNDS = {
  // Rising major third: something went right.
  'success.wav': renderTones([[659.25, 0, 0.18], [830.61, 0.12, 0.3]], 0.45),
  // Two even beeps: attention.
  'warning.wav': renderTones([[587.33, 0, 0.14], [587.33, 0.2, 0.18]], 0.42),
  // Falling low tones: something failed.
  'error.wav': renderTones([[392, 0, 0.18], [293.66, 0.16, 0.32]], 0.5),
  // A single bell-like chime: the default.
  'notification.wav': renderTones([[880, 0, 0.5]], 0.5, 0.4),
};

function write(path, data) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
  console.log(`${path} (${data.length} bytes)`);
}

for (const size of [192, 512]) write(join(publicDir, 'icons', `icon-${size}.png`), renderIcon(size, false));
write(join(publicDir, 'icons', 'icon-maskable-512.png'), renderIcon(512, true));
for (const [name, data] of Object.entries(SOUNDS)) write(join(publicDir, 'sounds', name), data);
