import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import type { Clock } from '../runtime/clock';
import { PrivateAddressError, isPublicAddressHost, publicOnlyLookup } from '../sources/outbound-guard';
import type { PushOptions } from './notification-content';
import type { VapidKeys } from './vapid-keys';

/** Push services accept 4096 bytes of encrypted body; aes128gcm adds 86 bytes of header and tag. */
export const MAX_PUSH_PAYLOAD_BYTES = 3800;

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type PushOutcome =
  | { kind: 'sent'; status: number }
  /** 404 / 410: the subscription is gone; delete it. */
  | { kind: 'gone'; status: number }
  /** 429, 5xx, timeouts and network errors: try again after `retryAfterMs` when given. */
  | { kind: 'retry'; status: number | null; retryAfterMs: number | null; reason: string }
  /** Any other answer (400, 403, 413, ...): retrying will not help. */
  | { kind: 'rejected'; status: number; reason: string };

/** The JSON the service worker shows (web/public/sw.js reads title, body and url). */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  id?: string;
  type?: string;
  activityType?: string | null;
  exchangeId?: string | null;
  tag?: string;
}

/** Serialises the payload, shortening the body until it fits the push size limit. */
export function encodePushPayload(payload: PushPayload): Buffer {
  let candidate = { ...payload };
  let encoded = Buffer.from(JSON.stringify(candidate));
  while (encoded.length > MAX_PUSH_PAYLOAD_BYTES && candidate.body.length > 0) {
    const over = encoded.length - MAX_PUSH_PAYLOAD_BYTES;
    candidate = { ...candidate, body: `${candidate.body.slice(0, Math.max(0, candidate.body.length - over - 1))}…` };
    if (candidate.body === '…') candidate.body = '';
    encoded = Buffer.from(JSON.stringify(candidate));
  }
  if (encoded.length > MAX_PUSH_PAYLOAD_BYTES) {
    candidate = { title: candidate.title.slice(0, 200), body: '', url: candidate.url.slice(0, 300) };
    encoded = Buffer.from(JSON.stringify(candidate));
  }
  return encoded;
}

/** Retry-After is delta-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const header = Array.isArray(value) ? value[0] : value;
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

const VAPID_HEADER_LIFETIME_S = 12 * 3600;

/**
 * Sends Web Push messages: web-push encrypts (aes128gcm) and builds the request, this class
 * sends it over keep-alive agents with a socket timeout always set, and classifies the answer.
 * VAPID JWTs are cached per push service origin for half their 24 h lifetime.
 */
export class PushSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly vapidHeaders = new Map<string, { authorization: string; expiresAt: number }>();

  constructor(
    private readonly keys: VapidKeys,
    private readonly options: {
      timeoutMs: number;
      clock: Clock;
      /** false: endpoints on loopback/private addresses are refused (outbound-guard.ts). */
      allowPrivate: boolean;
    },
  ) {
    // The guarded lookup checks every address a push service's name resolves to, per connection.
    const lookup = options.allowPrivate ? undefined : publicOnlyLookup;
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64, lookup });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64, lookup });
  }

  private authorization(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    // Wall time, not the injected clock: the push service checks the JWT's expiry against its own.
    const nowS = Math.floor(Date.now() / 1000);
    const cached = this.vapidHeaders.get(audience);
    if (cached && cached.expiresAt - nowS > VAPID_HEADER_LIFETIME_S / 2) return cached.authorization;
    const expiresAt = nowS + VAPID_HEADER_LIFETIME_S;
    const headers = webpush.getVapidHeaders(audience, this.keys.subject, this.keys.publicKey, this.keys.privateKey, 'aes128gcm', expiresAt);
    this.vapidHeaders.set(audience, { authorization: headers.Authorization, expiresAt });
    return headers.Authorization;
  }

  async send(target: PushTarget, payload: Buffer, push: PushOptions): Promise<PushOutcome> {
    let details;
    try {
      details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
        TTL: push.ttlSeconds,
        urgency: push.urgency,
        ...(push.topic ? { topic: push.topic } : {}),
        contentEncoding: 'aes128gcm',
        timeout: this.options.timeoutMs,
        headers: { Authorization: this.authorization(target.endpoint) },
      });
    } catch (error) {
      // Malformed keys or endpoint: the subscription can never receive anything.
      return { kind: 'rejected', status: 0, reason: error instanceof Error ? error.message : String(error) };
    }
    const url = new URL(details.endpoint);
    // Address literals never reach the lookup: check them here.
    if (!this.options.allowPrivate && !isPublicAddressHost(url.hostname)) {
      return { kind: 'rejected', status: 0, reason: `push endpoint host ${url.hostname} is not a public address` };
    }
    const transport = url.protocol === 'http:' ? http : https;
    const agent = url.protocol === 'http:' ? this.httpAgent : this.httpsAgent;
    const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)]));
    return new Promise<PushOutcome>((resolve) => {
      const request = transport.request(
        url,
        { method: 'POST', headers, agent, timeout: this.options.timeoutMs },
        (response) => {
          response.resume();
          response.on('end', () => resolve(this.classify(response.statusCode ?? 0, response.headers['retry-after'])));
          response.on('error', (error) => resolve({ kind: 'retry', status: null, retryAfterMs: null, reason: error.message }));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`push socket timeout after ${this.options.timeoutMs} ms`)));
      request.on('error', (error) =>
        resolve(
          error instanceof PrivateAddressError
            ? { kind: 'rejected', status: 0, reason: error.message }
            : { kind: 'retry', status: null, retryAfterMs: null, reason: error.message },
        ),
      );
      request.end(details.body ?? undefined);
    });
  }

  private classify(status: number, retryAfter: string | string[] | undefined): PushOutcome {
    if (status >= 200 && status < 300) return { kind: 'sent', status };
    if (status === 404 || status === 410) return { kind: 'gone', status };
    if (status === 429 || status >= 500) {
      return { kind: 'retry', status, retryAfterMs: parseRetryAfter(retryAfter, this.options.clock.now()), reason: `HTTP ${status}` };
    }
    return { kind: 'rejected', status, reason: `HTTP ${status}` };
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
