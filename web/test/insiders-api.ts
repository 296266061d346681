// The insiders api as recorded: answers from web/test/fixtures/insiders (real responses of
// api/src/insiders, recorded by web/scripts/record-insiders-fixtures.cts on the recorded Form 4
// filings). A request with no recording fails the test loudly instead of being answered with
// made-up data.
import clusterBuysNone from './fixtures/insiders/cluster-buys-none.json';
import clusterBuys from './fixtures/insiders/cluster-buys.json';
import companyNcvFollowed from './fixtures/insiders/company-ncv-followed.json';
import companyNcv from './fixtures/insiders/company-ncv.json';
import companySnow from './fixtures/insiders/company-snow.json';
import companyUnknown from './fixtures/insiders/company-unknown.json';
import followNcv from './fixtures/insiders/follow-ncv.json';
import follows from './fixtures/insiders/follows.json';
import insiderScarpelli from './fixtures/insiders/insider-scarpelli.json';
import screenerAll from './fixtures/insiders/screener-all.json';
import screenerBadFilter from './fixtures/insiders/screener-bad-filter.json';
import screenerClusterBuys from './fixtures/insiders/screener-cluster-buys.json';
import screenerLatestPurchasesBefore from './fixtures/insiders/screener-latest-purchases-before.json';
import screenerLatestPurchases from './fixtures/insiders/screener-latest-purchases.json';
import screenerNone from './fixtures/insiders/screener-none.json';
import screenerOfficerBuys from './fixtures/insiders/screener-officer-buys.json';
import screenerSnowByValue from './fixtures/insiders/screener-snow-by-value.json';
import searchSnow from './fixtures/insiders/search-snow.json';
import type { FakeHandler, FakeReply } from './fake-fetch';

export interface Recording {
  request: string;
  status: number;
  body: unknown;
}

export const INSIDERS_RECORDINGS = {
  clusterBuys,
  clusterBuysNone,
  companyNcv,
  companyNcvFollowed,
  companySnow,
  companyUnknown,
  followNcv,
  follows,
  insiderScarpelli,
  screenerAll,
  screenerBadFilter,
  screenerClusterBuys,
  screenerLatestPurchases,
  screenerLatestPurchasesBefore,
  screenerNone,
  screenerOfficerBuys,
  screenerSnowByValue,
  searchSnow,
} satisfies Record<string, Recording>;

/** `METHOD /path?sorted=query`: one key per distinct request, parameter order ignored. */
export function insidersRequestKey(method: string, path: string): string {
  const url = new URL(path, 'http://localhost');
  const params = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(params).toString();
  return `${method} ${decodeURIComponent(url.pathname)}${query ? `?${query}` : ''}`;
}

/**
 * Answers the recorded insiders requests (the first of two recordings of one request wins: pass
 * the ones the test wants). Other /api/insiders requests throw; anything else is a 404.
 */
export function recordedInsidersApi(recordings: readonly Recording[] = Object.values(INSIDERS_RECORDINGS)): FakeHandler & { calls: string[] } {
  const byKey = new Map<string, Recording>();
  for (const recording of recordings) {
    const [method, path] = recording.request.split(' ');
    const key = insidersRequestKey(method!, path!);
    if (!byKey.has(key)) byKey.set(key, recording);
  }
  const calls: string[] = [];
  const handler = (path: string, init?: RequestInit): FakeReply => {
    const method = init?.method ?? 'GET';
    const key = insidersRequestKey(method, path);
    if (path.startsWith('/api/insiders/')) calls.push(key);
    const recording = byKey.get(key);
    if (recording) return { status: recording.status, body: recording.body };
    if (!path.startsWith('/api/insiders/')) return { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
    throw new Error(`No recorded insiders answer for ${key}`);
  };
  return Object.assign(handler, { calls });
}
