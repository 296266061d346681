// The chat benchmark's stream readers, in a process of their own (forked by chat.bench.ts with an
// IPC channel): every member's live stream (`GET /api/stream`, SSE) on its api process, each chat
// `message` event's receive time recorded against the send time the poster wrote into the text
// (`bench <seq> <sent ms>`), so the bench's posting loop never shares an event loop with the
// 1,000 readers. Messages (parent -> here): `open` (the members), `finish` (which posts were
// accepted, how long to wait for stragglers). Answers: `opened`, `result`, or `error`.
import http from 'node:http';

export interface ReaderMember {
  /** The member's index in the run (0..members-1). */
  index: number;
  room: number;
  port: number;
  cookie: string;
}

export type ToReaders =
  | { type: 'open'; members: ReaderMember[]; total: number; rooms: number }
  /** measuredFrom: wall ms where the measured window starts (posts sent before it are the warm-up). */
  | { type: 'finish'; accepted: number[]; graceMs: number; startedAt: number; measuredFrom: number };

export interface ReadersResult {
  type: 'result';
  deliveries: number;
  expected: number;
  lost: number;
  duplicated: number;
  /** Deliveries that should not exist: a seq the run did not post, a refused post, another room's message. */
  foreign: number;
  /** Streams that ended or failed during the run. */
  streamErrors: number;
  /** Latency of the deliveries of the posts of the measured window. */
  measured: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  /** The warm-up's deliveries: p50, p99, max. */
  warmup: number[];
  /** p99 of the deliveries of messages posted in each successive 5 s of the measured window. */
  p99By5s: number[];
  /** From the first send to the last delivery, in seconds. */
  deliverySpanSeconds: number;
}

export type FromReaders = { type: 'opened'; streams: number } | ReadersResult | { type: 'error'; message: string };

/** Milliseconds on a clock shared by the processes of the machine (sub-millisecond resolution). */
export const wallNow = () => performance.timeOrigin + performance.now();

const percentile = (sorted: Float64Array | number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

const send = (message: FromReaders) => process.send?.(message);

const MESSAGE_EVENT = 'event: chat\ndata: {"kind":"message",';
const TEXT_MARK = '"text":"bench ';

let members: ReaderMember[] = [];
let total = 0;
let received = new Uint8Array(0);
const requests: http.ClientRequest[] = [];
let latencies = new Float64Array(1 << 16);
let sentTimes = new Float64Array(1 << 16);
let deliveries = 0;
let foreign = 0;
let streamErrors = 0;
let finishing = false;
let lastDelivery = 0;

function record(member: number, seq: number, sentAt: number, at: number): void {
  if (!(seq >= 0 && seq < total)) {
    foreign++;
    return;
  }
  received[member * total + seq]++;
  if (deliveries === latencies.length) {
    const grown = new Float64Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
    const grownSent = new Float64Array(sentTimes.length * 2);
    grownSent.set(sentTimes);
    sentTimes = grownSent;
  }
  latencies[deliveries] = at - sentAt;
  sentTimes[deliveries] = sentAt;
  deliveries++;
  lastDelivery = at;
}

/** One member's stream; resolves once the api sent its first bytes (the relay is subscribed then). */
function openStream(member: ReaderMember): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port: member.port, path: '/api/stream', headers: { Accept: 'text/event-stream', Cookie: member.cookie }, agent: false },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream of member ${member.index} answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        let opened = false;
        res.on('data', (chunk: string) => {
          const at = wallNow();
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            // `event: chat` / `data: {"kind":"message",...,"text":"bench <seq> <sent ms>",...}`: the text is
            // found without parsing the whole event (these readers stand for 1,000 browsers elsewhere).
            if (!block.startsWith(MESSAGE_EVENT)) continue;
            const from = block.indexOf(TEXT_MARK);
            if (from < 0) continue;
            const [seq, sentAt] = block.slice(from + TEXT_MARK.length, block.indexOf('"', from + TEXT_MARK.length)).split(' ');
            record(member.index, Number(seq), Number(sentAt), at);
          }
          if (!opened) {
            opened = true;
            resolve();
          }
        });
        res.on('close', () => {
          if (!finishing) streamErrors++;
        });
      },
    );
    req.on('error', (error) => {
      if (!finishing) streamErrors++;
      reject(error);
    });
    requests.push(req);
  });
}

async function open(message: Extract<ToReaders, { type: 'open' }>): Promise<void> {
  members = message.members;
  total = message.total;
  received = new Uint8Array(members.length * total);
  // 100 at a time: each open costs its api a session load and a rooms query.
  for (let i = 0; i < members.length; i += 100) await Promise.all(members.slice(i, i + 100).map(openStream));
  send({ type: 'opened', streams: requests.length });
}

async function finish(message: Extract<ToReaders, { type: 'finish' }>): Promise<void> {
  const accepted = new Uint8Array(total);
  for (const seq of message.accepted) accepted[seq] = 1;
  const byRoom = new Map<number, number[]>();
  for (const m of members) byRoom.set(m.room, [...(byRoom.get(m.room) ?? []), m.index]);
  const roomOfAuthor = (seq: number) => members[seq % members.length].room;
  let expected = 0;
  for (let seq = 0; seq < total; seq++) if (accepted[seq]) expected += byRoom.get(roomOfAuthor(seq))?.length ?? 0;
  // Stragglers: wait until every expected delivery arrived, at most graceMs.
  const deadline = wallNow() + message.graceMs;
  while (deliveries < expected && wallNow() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  finishing = true;
  let lost = 0;
  let duplicated = 0;
  let unexpected = 0;
  for (const m of members) {
    for (let seq = 0; seq < total; seq++) {
      const n = received[m.index * total + seq];
      const due = accepted[seq] === 1 && roomOfAuthor(seq) === m.room;
      if (due && n === 0) lost++;
      if (n > 1) duplicated += n - 1;
      // A post the api refused, or another room's message, reaching this member.
      if (!due && n > 0) unexpected += n;
    }
  }
  const all: number[] = [];
  const warm: number[] = [];
  const bins: number[][] = [];
  for (let i = 0; i < deliveries; i++) {
    if (sentTimes[i] < message.measuredFrom) {
      warm.push(latencies[i]);
      continue;
    }
    all.push(latencies[i]);
    (bins[Math.floor((sentTimes[i] - message.measuredFrom) / 5_000)] ??= []).push(latencies[i]);
  }
  const byValue = (a: number, b: number) => a - b;
  all.sort(byValue);
  warm.sort(byValue);
  send({
    type: 'result',
    deliveries,
    expected,
    lost,
    duplicated,
    foreign: foreign + unexpected,
    streamErrors,
    measured: all.length,
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    p999: percentile(all, 99.9),
    max: all.length ? all[all.length - 1] : NaN,
    warmup: [percentile(warm, 50), percentile(warm, 99), warm.length ? warm[warm.length - 1] : NaN],
    p99By5s: Array.from(bins, (bin) => percentile((bin ?? []).sort(byValue), 99)),
    deliverySpanSeconds: (lastDelivery - message.startedAt) / 1000,
  });
  requests.forEach((req) => req.destroy());
}

// The bench imports this module for its types and wallNow: only the forked process reads streams.
if (process.env.TB_CHAT_READERS === '1') {
  process.on('message', (message: ToReaders) => {
    const run = message.type === 'open' ? open(message) : finish(message);
    run.catch((error: unknown) => send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
  });
  process.on('disconnect', () => process.exit(0));
}
