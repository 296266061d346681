// The COT api as recorded: answers from web/test/fixtures/cot (real responses of api/src/cot,
// recorded by web/scripts/record-cot-fixtures.cts on the real 2022 CFTC sample). A request with
// no recording fails the test loudly instead of being answered with made-up data.
import history26 from './fixtures/cot/sample-history-es-26.json';
import history52 from './fixtures/cot/sample-history-es-52.json';
import history156 from './fixtures/cot/sample-history-es-156.json';
import history1040 from './fixtures/cot/sample-history-es-1040.json';
import historyUnknown from './fixtures/cot/sample-history-unknown.json';
import latestByRankAsc from './fixtures/cot/sample-latest-by-leveraged-rank-asc.json';
import latestByRank from './fixtures/cot/sample-latest-by-leveraged-rank.json';
import latestCrypto from './fixtures/cot/sample-latest-crypto.json';
import latest from './fixtures/cot/sample-latest.json';
import latestProvisional from './fixtures/cot/until-2022-05-31-latest.json';
import type { FakeHandler, FakeReply } from './fake-fetch';

export interface Recording {
  request: string;
  status: number;
  body: unknown;
}

export const COT_RECORDINGS = {
  latest,
  latestByRank,
  latestByRankAsc,
  latestCrypto,
  latestProvisional,
  history26,
  history52,
  history156,
  history1040,
  historyUnknown,
} satisfies Record<string, Recording>;

const TEXT_SORTS = new Set(['name', 'symbol', 'cftcCode', 'category']);

/** One key per distinct api answer: the api's defaults applied, parameter order ignored. */
export function cotRequestKey(path: string): string {
  const url = new URL(path, 'http://localhost');
  const params = url.searchParams;
  if (url.pathname === '/api/cot/latest') {
    const sort = params.get('sort') ?? 'name';
    const order = params.get('order') ?? (TEXT_SORTS.has(sort) ? 'asc' : 'desc');
    return `latest sort=${sort} order=${order} category=${params.get('category') ?? ''}`;
  }
  const history = /^\/api\/cot\/instruments\/([^/]+)\/history$/.exec(url.pathname);
  if (history) return `history code=${decodeURIComponent(history[1] ?? '')} weeks=${params.get('weeks') ?? '156'}`;
  return url.pathname;
}

/** The full sample's answers; the provisional screener answers the same request, so it is opt-in. */
const SAMPLE_RECORDINGS: readonly Recording[] = Object.values(COT_RECORDINGS).filter((recording) => recording !== COT_RECORDINGS.latestProvisional);

/** Answers every recorded request; `recordings` picks which (e.g. the provisional screener). */
export function recordedCotApi(recordings: readonly Recording[] = SAMPLE_RECORDINGS): FakeHandler {
  const byKey = new Map(recordings.map((recording) => [cotRequestKey(recording.request), recording]));
  return (path): FakeReply => {
    const recording = byKey.get(cotRequestKey(path));
    if (recording) return { status: recording.status, body: recording.body };
    if (!path.startsWith('/api/cot/')) return { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
    throw new Error(`No recorded COT answer for ${path}`);
  };
}
