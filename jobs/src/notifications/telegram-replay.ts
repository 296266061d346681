import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * The replay twin of the Telegram Bot API: a local HTTP server that answers `sendMessage` and
 * `getUpdates` at `/bot<token>/<method>` in the Bot API's shapes, for tests (TELEGRAM_API_URL
 * pointed at it). It is not used by the workers or the offline demo: without TELEGRAM_BOT_TOKEN
 * the Telegram channel is off.
 *
 * Every successful answer is built from the one recorded answer in data/ (README.md there): a
 * real sendMessage answer whose Message object is reused, with its message id, chat id, date and
 * text set to the request's; getUpdates' Update objects wrap that same Message with the sender,
 * chat id and text a test gives. The failure answers (429 with retry_after, 403, 400 with
 * migrate_to_chat_id, 401, 5xx) follow the Bot API's documented envelope; they are not recorded.
 */

export const TELEGRAM_RECORDINGS_DIR = join(__dirname, 'data');
/** The recorded sendMessage answer (its chat id redacted by its author as `-TELEGRAM_CHAT_ID`). */
export const TELEGRAM_SEND_MESSAGE_RECORDING = 'telegram_sendMessage_response_2021_chatid_redacted.txt';
/** The number put in place of the recording's redacted chat id (a group: negative). */
export const RECORDED_CHAT_ID = -400123456;

type Json = Record<string, unknown>;

/** The recorded answer as JSON, with `chatId` in place of the redaction placeholder. */
export function recordedSendMessageAnswer(chatId: number = RECORDED_CHAT_ID): { ok: true; result: Json } {
  const text = readFileSync(join(TELEGRAM_RECORDINGS_DIR, TELEGRAM_SEND_MESSAGE_RECORDING), 'utf8');
  if (!text.includes('-TELEGRAM_CHAT_ID')) throw new Error('the recorded sendMessage answer no longer holds its placeholder');
  return JSON.parse(text.replace('-TELEGRAM_CHAT_ID', String(Math.trunc(chatId)))) as { ok: true; result: Json };
}

export interface ReplaySender {
  id: number;
  first_name: string;
  username?: string;
}

export interface SentTelegramMessage {
  chatId: string;
  text: string;
  /** The request body as sent (chat_id, text, disable_web_page_preview, ...). */
  body: Json;
}

export interface TelegramReplayServer {
  /** TELEGRAM_API_URL for clients. */
  url: string;
  token: string;
  /** Every sendMessage that was answered ok, in order. */
  sent: SentTelegramMessage[];
  /** Every request (method and body), answered or refused. */
  requests: { method: string; body: Json }[];
  /** A user (or group member) writes to the bot: queued for getUpdates; answers its update_id. */
  receive(message: { chatId: number; text: string; from?: ReplaySender; chatUsername?: string }): number;
  /** The next `count` sendMessage calls answer 429 with `retry_after` seconds. */
  rateLimitNext(count: number, retryAfterSeconds: number): void;
  /** sendMessage to this chat answers 403 "bot was blocked by the user" from now on. */
  block(chatId: number | string): void;
  /** sendMessage to this chat answers 400 with migrate_to_chat_id (a group upgraded to a supergroup). */
  migrate(chatId: number | string, toChatId: number): void;
  /** The next `count` requests answer HTTP `status` (5xx: Telegram is having trouble). */
  failNext(count: number, status?: number): void;
  /** Updates confirmed so far (getUpdates was called with an offset above them). */
  confirmedUpTo(): number;
  close(): Promise<void>;
}

export const REPLAY_BOT_TOKEN = '123456789:AAReplayTokenForTestsOnly_abcdefghij';

function readBody(req: IncomingMessage): Promise<Json> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const query = Object.fromEntries(new URL(req.url ?? '/', 'http://replay').searchParams);
      if (!text) return resolve(query);
      try {
        resolve({ ...query, ...(JSON.parse(text) as Json) });
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

/**
 * Starts the fake Bot API on 127.0.0.1 (a free port). `now` dates the messages (the test's clock);
 * default the wall clock.
 */
export async function startTelegramReplayServer(options: { token?: string; now?: () => Date } = {}): Promise<TelegramReplayServer> {
  const token = options.token ?? REPLAY_BOT_TOKEN;
  const now = options.now ?? (() => new Date());
  const recorded = recordedSendMessageAnswer().result;
  const sent: SentTelegramMessage[] = [];
  const requests: { method: string; body: Json }[] = [];
  const updates: Json[] = [];
  const blocked = new Set<string>();
  const migrated = new Map<string, number>();
  let rateLimited = { count: 0, retryAfter: 0 };
  let failing = { count: 0, status: 500 };
  let nextMessageId = Number(recorded.message_id);
  let nextUpdateId = 700_000_001;
  let confirmed = 0;

  const reply = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, status: number, description: string, parameters?: Json) =>
    reply(res, status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });

  const message = (fields: { chatId: number; text: string; from?: Json; chat?: Json }): Json => ({
    ...recorded,
    message_id: ++nextMessageId,
    ...(fields.from ? { from: fields.from } : {}),
    chat: { ...(recorded.chat as Json), ...(fields.chat ?? {}), id: fields.chatId },
    date: Math.floor(now().getTime() / 1000),
    text: fields.text,
  });

  const server = createServer((req, res) => {
    void (async () => {
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(new URL(req.url ?? '/', 'http://replay').pathname);
      let body: Json;
      try {
        body = await readBody(req);
      } catch {
        return refuse(res, 400, 'Bad Request: invalid JSON');
      }
      requests.push({ method: match?.[2] ?? '?', body });
      if (!match) return refuse(res, 404, 'Not Found');
      if (match[1] !== token) return refuse(res, 401, 'Unauthorized');
      if (failing.count > 0) {
        failing.count--;
        return refuse(res, failing.status, failing.status === 502 ? 'Bad Gateway' : 'Internal Server Error');
      }
      switch (match[2]) {
        case 'sendMessage': {
          const chatId = String(body.chat_id ?? '');
          const text = typeof body.text === 'string' ? body.text : '';
          if (!/^-?\d+$/.test(chatId)) return refuse(res, 400, 'Bad Request: chat not found');
          if (!text.trim()) return refuse(res, 400, 'Bad Request: message text is empty');
          if (text.length > 4096) return refuse(res, 400, 'Bad Request: message is too long');
          if (rateLimited.count > 0) {
            rateLimited.count--;
            return refuse(res, 429, `Too Many Requests: retry after ${rateLimited.retryAfter}`, { retry_after: rateLimited.retryAfter });
          }
          if (blocked.has(chatId)) return refuse(res, 403, 'Forbidden: bot was blocked by the user');
          const to = migrated.get(chatId);
          if (to !== undefined) return refuse(res, 400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: to });
          sent.push({ chatId, text, body });
          return reply(res, 200, { ok: true, result: message({ chatId: Number(chatId), text }) });
        }
        case 'getUpdates': {
          const offset = body.offset === undefined ? null : Number(body.offset);
          const limit = Math.min(100, Math.max(1, Number(body.limit ?? 100)));
          // An offset confirms every update below it: Telegram forgets them.
          if (offset !== null && Number.isFinite(offset)) {
            while (updates.length && Number(updates[0].update_id) < offset) confirmed = Number(updates.shift()?.update_id);
          }
          return reply(res, 200, { ok: true, result: updates.slice(0, limit) });
        }
        default:
          return refuse(res, 404, 'Not Found');
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    sent,
    requests,
    receive({ chatId, text, from, chatUsername }) {
      const sender = from ?? { id: Math.abs(chatId), first_name: 'Ada', username: 'ada_l' };
      const recordedFrom = recorded.from as Json;
      const update = {
        update_id: nextUpdateId++,
        message: message({
          chatId,
          text,
          from: { ...recordedFrom, ...sender, is_bot: false },
          chat: chatUsername === undefined ? undefined : { username: chatUsername },
        }),
      };
      updates.push(update);
      return update.update_id;
    },
    rateLimitNext(count, retryAfterSeconds) {
      rateLimited = { count, retryAfter: retryAfterSeconds };
    },
    block(chatId) {
      blocked.add(String(chatId));
    },
    migrate(chatId, toChatId) {
      migrated.set(String(chatId), toChatId);
    },
    failNext(count, status = 500) {
      failing = { count, status };
    },
    confirmedUpTo: () => confirmed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
