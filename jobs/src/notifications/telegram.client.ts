import type { ZodType } from 'zod';
import { recordSourceHealth, type SourceHealthDeps } from '../sources/source-health';
import {
  getUpdatesResultSchema,
  parseTelegramAnswer,
  sendMessageResultSchema,
  TelegramParseError,
  type TelegramAnswer,
  type TelegramUpdate,
} from './telegram.parse';

/** The source name of the Bot API in source_health (the /status page). */
export const TELEGRAM_SOURCE = 'telegram';

/** Telegram refuses longer texts (4,096 characters after entities parsing); longer ones are cut. */
export const TELEGRAM_MAX_TEXT = 4096;

/** What one sendMessage came to. */
export type TelegramSendOutcome =
  | { kind: 'sent'; messageId: number }
  /** 429: flood control; send again after `retryAfterSeconds` (ResponseParameters.retry_after). */
  | { kind: 'rate-limited'; retryAfterSeconds: number; description: string }
  /** 403 (the user blocked the bot, the bot left or was removed from the group), or 400 "chat not found": the chat is gone for the bot. */
  | { kind: 'blocked'; status: number; description: string }
  /** 400 with migrate_to_chat_id: the group became a supergroup with this id; send there. */
  | { kind: 'migrated'; chatId: string }
  /** Any other refusal (400 message too long, 401 bad token, ...): sending again will not help. */
  | { kind: 'rejected'; status: number; description: string }
  /** No answer (timeout, network), a 5xx, or an answer that is not the Bot API's: worth another try later. */
  | { kind: 'unavailable'; status: number | null; reason: string };

/** A failed getUpdates (the updates job fails and is tried again by the next tick). */
export class TelegramApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'TelegramApiError';
  }
}

/** The Bot API as the channel uses it: the live client and its replay twin's server speak the same HTTP. */
export interface TelegramBot {
  /** sendMessage as plain text (no parse_mode: nothing needs escaping), link previews off. */
  sendMessage(chatId: string, text: string): Promise<TelegramSendOutcome>;
  /** getUpdates from `offset` (confirms every update below it), short poll; only `message` updates are asked for. */
  getUpdates(offset: number | null, limit?: number): Promise<TelegramUpdate[]>;
}

export interface TelegramBotClientOptions {
  /** TELEGRAM_API_URL: the public Bot API, or the local fake (telegram-replay.ts). */
  apiUrl: string;
  token: string;
  /** Per request; always set (default 10 s). */
  timeoutMs?: number;
  /** Records each call's outcome in source_health under 'telegram'. */
  health?: SourceHealthDeps;
  fetch?: typeof fetch;
}

/** Cuts a text to what Telegram takes, marking the cut. */
export function telegramText(text: string): string {
  return text.length <= TELEGRAM_MAX_TEXT ? text : `${text.slice(0, TELEGRAM_MAX_TEXT - 1)}…`;
}

/**
 * The Telegram Bot API over HTTPS (`<apiUrl>/bot<token>/<method>`, JSON bodies), with a timeout on
 * every request. The token is part of the URL, so no URL is ever put in an error or a log line:
 * errors name the method only.
 */
export class TelegramBotClient implements TelegramBot {
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly base: string;

  constructor(private readonly options: TelegramBotClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.base = `${options.apiUrl.replace(/\/+$/, '')}/bot${options.token}`;
  }

  async sendMessage(chatId: string, text: string): Promise<TelegramSendOutcome> {
    const outcome = await this.sendOnce(chatId, text);
    if (this.options.health) {
      if (outcome.kind === 'unavailable') await recordSourceHealth(this.options.health, TELEGRAM_SOURCE, { ok: false, error: `sendMessage: ${outcome.reason}` });
      else if (outcome.kind === 'rejected' && (outcome.status === 401 || outcome.status === 404)) {
        // The token itself is refused: every send fails until the operator fixes it.
        await recordSourceHealth(this.options.health, TELEGRAM_SOURCE, { ok: false, error: `sendMessage: HTTP ${outcome.status} ${outcome.description}` });
      } else if (outcome.kind === 'sent') await recordSourceHealth(this.options.health, TELEGRAM_SOURCE, { ok: true });
    }
    return outcome;
  }

  private async sendOnce(chatId: string, text: string): Promise<TelegramSendOutcome> {
    let answer: { status: number; body: TelegramAnswer<{ message_id: number }> };
    try {
      answer = await this.call('sendMessage', {
        chat_id: Number(chatId),
        text: telegramText(text),
        disable_web_page_preview: true,
        // The newer spelling of the same switch; Telegram reads either.
        link_preview_options: { is_disabled: true },
      }, sendMessageResultSchema);
    } catch (error) {
      return { kind: 'unavailable', status: error instanceof TelegramApiError ? error.status : null, reason: (error as Error).message };
    }
    const { status, body } = answer;
    if (body.ok) return { kind: 'sent', messageId: body.result.message_id };
    const code = body.error_code || status;
    if (code === 429) return { kind: 'rate-limited', retryAfterSeconds: body.parameters?.retry_after ?? 1, description: body.description };
    if (body.parameters?.migrate_to_chat_id !== undefined) return { kind: 'migrated', chatId: String(body.parameters.migrate_to_chat_id) };
    if (code === 403 || (code === 400 && /chat not found/i.test(body.description))) return { kind: 'blocked', status: code, description: body.description };
    if (code >= 500) return { kind: 'unavailable', status: code, reason: `HTTP ${code} ${body.description}` };
    return { kind: 'rejected', status: code, description: body.description };
  }

  async getUpdates(offset: number | null, limit = 100): Promise<TelegramUpdate[]> {
    try {
      const { status, body } = await this.call(
        'getUpdates',
        { ...(offset === null ? {} : { offset }), limit, timeout: 0, allowed_updates: ['message'] },
        getUpdatesResultSchema,
      );
      if (!body.ok) {
        const why =
          body.error_code === 409
            ? 'another getUpdates is running or a webhook is set for this bot (getUpdates and webhooks exclude each other)'
            : body.description;
        throw new TelegramApiError(`getUpdates: HTTP ${body.error_code || status} ${why}`, body.error_code || status);
      }
      if (this.options.health) await recordSourceHealth(this.options.health, TELEGRAM_SOURCE, { ok: true });
      return body.result as TelegramUpdate[];
    } catch (error) {
      if (this.options.health) await recordSourceHealth(this.options.health, TELEGRAM_SOURCE, { ok: false, error: (error as Error).message });
      throw error;
    }
  }

  /** One POST; answers the HTTP status and the parsed envelope, or throws TelegramApiError (no answer, not JSON, not the Bot API's shape). */
  private async call<T>(method: string, payload: unknown, result: ZodType<T>): Promise<{ status: number; body: TelegramAnswer<T> }> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.base}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const { name, message } = (error ?? {}) as { name?: string; message?: string };
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw new TelegramApiError(`${method}: ${timedOut ? `no answer within ${this.timeoutMs} ms` : (message ?? String(error))}`, null);
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw new TelegramApiError(`${method}: the answer was cut off`, response.status);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new TelegramApiError(`${method}: HTTP ${response.status}, not JSON`, response.status);
    }
    try {
      return { status: response.status, body: parseTelegramAnswer(json, result) };
    } catch (error) {
      if (error instanceof TelegramParseError) throw new TelegramApiError(`${method}: ${error.message}`, response.status);
      throw error;
    }
  }
}
