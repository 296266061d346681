// An in-memory stand-in for the alerts api, answering in the shapes of @tickerbell/jobs/alerts/shapes
// (api/src/alerts/alerts.routes.ts): GET { alerts, nextBefore } (keyset pages), POST 201 { alert }, PATCH { alert }, DELETE 204,
// logs { logs, nextBefore }, the check { triggeredAlerts }, and GET /api/markets { markets }.
import type { ClientAlert, ClientAlertLog } from '@tickerbell/jobs/alerts/shapes';
import type { MarketView } from '@tickerbell/jobs/prices/shapes';
import type { FakeHandler, FakeReply } from './fake-fetch';

export const SAMPLE_MARKETS: readonly MarketView[] = [
  { id: 1, symbol: 'BTCUSDT', name: 'Bitcoin / TetherUS', type: 'crypto', description: null },
  { id: 2, symbol: 'BTCUSD', name: 'Bitcoin / US Dollar', type: 'crypto', description: null },
  { id: 3, symbol: 'AAPL', name: 'Apple Inc.', type: 'stock', description: null },
];

export function apiAlert(overrides: Partial<ClientAlert> = {}): ClientAlert {
  return {
    id: 1,
    name: 'BTC breakout',
    symbol: 'BTCUSDT',
    marketType: 'crypto',
    condition: { type: 'crossing_up', value: '70000' },
    interval: null,
    frequency: 'once_per_day',
    cooldownSeconds: 60,
    expiresAt: null,
    isActive: true,
    useAudio: false,
    audioMessage: null,
    audioVoiceId: null,
    notifyPush: true,
    notifyEmail: false,
    webhookUrl: null,
    webhookSecret: null,
    lastTriggered: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export function apiLog(id: number, overrides: Partial<ClientAlertLog> = {}): ClientAlertLog {
  return {
    id: String(id),
    triggeredAt: new Date(Date.UTC(2026, 10, 21, 12, 0) - id * 60_000).toISOString(),
    value: `${70000 + id}.5`,
    message: `BTC breakout: BTCUSDT crossed up through 70000 at ${70000 + id}.5`,
    wasNotified: true,
    webhookStatus: null,
    webhookAttempts: 0,
    webhookLastError: null,
    ...overrides,
  };
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  csrf: string | null;
}

const CHECK_PATH = '/api/alerts/crypto/check';

const notFound: FakeReply = { status: 404, body: { error: { code: 'not_found', message: 'No such alert', requestId: 'r' } } };

export class FakeAlertsApi {
  alerts: ClientAlert[];
  /** Logs per alert id, newest first. */
  logs = new Map<number, ClientAlertLog[]>();
  requests: RecordedRequest[] = [];
  /** Answers the next write instead of the fake (403 plan limit, 400 field errors …). */
  nextWriteReply: FakeReply | null = null;
  private nextId = 100;

  constructor(alerts: ClientAlert[] = []) {
    this.alerts = alerts;
  }

  /** The requests to a path prefix with a method (the csrf fetches and the background check left out). */
  calls(method: string, prefix = '/api/alerts'): RecordedRequest[] {
    return this.requests.filter(
      (request) => request.method === method && request.path.startsWith(prefix) && (request.path !== CHECK_PATH || prefix === CHECK_PATH),
    );
  }

  /**
   * GET /api/alerts?active=&symbol=&limit=&before=: `alerts` newest first (the array's order),
   * pages of `limit` (100 by default, 1-200 else a 400) after the alert `before`, `nextBefore` the
   * last id of a page with more after it, null on the last page.
   */
  private listPage(params: URLSearchParams): FakeReply {
    const limit = Number(params.get('limit') ?? '100');
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
      return { status: 400, body: { error: { code: 'validation_failed', message: 'Invalid input: limit', details: [{ field: 'limit', message: 'too big' }] } } };
    }
    const active = params.get('active');
    const symbol = params.get('symbol')?.toUpperCase();
    const matching = this.alerts.filter(
      (alert) => (active === null || alert.isActive === (active === 'true')) && (symbol === undefined || alert.symbol.toUpperCase() === symbol),
    );
    const before = params.get('before');
    const start = before === null ? 0 : matching.findIndex((alert) => String(alert.id) === before) + 1;
    const page = matching.slice(start, start + limit);
    const more = matching.length > start + limit;
    return { status: 200, body: { alerts: page, nextBefore: more ? String(page[page.length - 1].id) : null } };
  }

  readonly handler: FakeHandler = (path, init) => {
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const csrf = new Headers(init?.headers).get('x-csrf-token');
    this.requests.push({ method, path, body, csrf });
    const url = new URL(path, 'http://localhost');

    if (url.pathname === '/api/markets') {
      const q = (url.searchParams.get('q') ?? '').toUpperCase();
      return { status: 200, body: { markets: SAMPLE_MARKETS.filter((m) => m.symbol.startsWith(q) || m.name.toUpperCase().includes(q)) } };
    }
    if (url.pathname === '/api/alerts/crypto/check' && method === 'POST') return { status: 200, body: { triggeredAlerts: [] } };

    if (method !== 'GET' && this.nextWriteReply) {
      const reply = this.nextWriteReply;
      this.nextWriteReply = null;
      return reply;
    }
    if (url.pathname === '/api/alerts' && method === 'GET') return this.listPage(url.searchParams);
    if (url.pathname === '/api/alerts' && method === 'POST') {
      const input = body as Partial<ClientAlert>;
      const market = SAMPLE_MARKETS.find((m) => m.symbol === input.symbol);
      const alert = apiAlert({
        ...input,
        id: this.nextId++,
        marketType: market?.type ?? 'stock',
        webhookSecret: input.webhookUrl ? 'a'.repeat(64) : null,
      });
      this.alerts = [alert, ...this.alerts];
      return { status: 201, body: { alert } };
    }
    const match = /^\/api\/alerts\/(\d+)(\/logs)?$/.exec(url.pathname);
    if (!match) return notFound;
    const id = Number(match[1]);
    const index = this.alerts.findIndex((alert) => alert.id === id);
    if (index < 0) return notFound;
    if (match[2]) {
      const limit = Number(url.searchParams.get('limit') ?? '50');
      const before = url.searchParams.get('before');
      const all = this.logs.get(id) ?? [];
      const start = before === null ? 0 : all.findIndex((log) => log.id === before) + 1;
      const page = all.slice(start, start + limit);
      const more = all.length > start + limit;
      return { status: 200, body: { logs: page, nextBefore: more ? page.at(-1)?.id : null } };
    }
    if (method === 'PATCH') {
      const updated = { ...this.alerts[index], ...(body as Partial<ClientAlert>) } as ClientAlert;
      this.alerts[index] = updated;
      return { status: 200, body: { alert: updated } };
    }
    if (method === 'DELETE') {
      this.alerts.splice(index, 1);
      return { status: 204 };
    }
    return { status: 200, body: { alert: this.alerts[index] } };
  };
}
