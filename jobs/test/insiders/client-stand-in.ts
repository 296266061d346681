import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FORM4_SAMPLE_FILES, INSIDERS_RECORDINGS_DIR, parseForm4 } from '../../src/insiders/form4.parse';
import { BARE_XML_ACCESSIONS, INSIDERS_REPLAY_FILES } from '../../src/insiders/insiders-replay';

export interface SecStandIn {
  server: Server;
  /** Stands in for www.sec.gov; `${base}/data` for data.sec.gov. */
  base: string;
  requests: { path: string; headers: IncomingMessage['headers']; at: number }[];
  /** Accessions served: every recorded filing with an accession. */
  accessions: Map<string, string>;
  close(): Promise<void>;
}

/** Accession -> recorded file (from the document's header, or its origin for bare XML). */
export function recordedAccessions(): Map<string, string> {
  const map = new Map<string, string>();
  for (const file of FORM4_SAMPLE_FILES) {
    const accession = parseForm4(readFileSync(join(INSIDERS_RECORDINGS_DIR, file))).accessionNumber ?? BARE_XML_ACCESSIONS[file];
    if (accession) map.set(accession, file);
  }
  return map;
}

/** The accession whose filing never answers (the client's timeout ends it). */
export const HANGING_ACCESSION = '0000000000-25-000001';

/**
 * A local stand-in for EDGAR serving the recorded real payloads at their sec.gov paths: the Form 4
 * current-filings feed, the daily form index of 2020-03-18 (404 on other days, as EDGAR answers for
 * a holiday), every recorded filing's full text, company_tickers.json and Tesla's submissions. Under
 * /refusing it answers 429 (Retry-After 120), under /down 503.
 */
export function startSecStandIn(): Promise<SecStandIn> {
  const recorded = (file: string) => readFileSync(join(INSIDERS_RECORDINGS_DIR, file));
  const accessions = recordedAccessions();
  const requests: SecStandIn['requests'] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    requests.push({ path: req.url ?? '/', headers: req.headers, at: Date.now() });
    const send = (body: Buffer, type: string) => res.writeHead(200, { 'content-type': type }).end(body);
    if (path.startsWith('/refusing/')) return res.writeHead(429, { 'retry-after': '120' }).end('Request Rate Threshold Exceeded');
    if (path.startsWith('/down/')) return res.writeHead(503).end('busy');
    if (path === '/cgi-bin/browse-edgar' && url.searchParams.get('action') === 'getcurrent' && url.searchParams.get('type') === '4') {
      return url.searchParams.get('start') === '0' ? send(recorded(INSIDERS_REPLAY_FILES.feed), 'application/atom+xml') : res.writeHead(404).end();
    }
    if (path === '/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx') return send(recorded(INSIDERS_REPLAY_FILES.formIndex), 'text/plain');
    const filing = path.match(/^\/Archives\/edgar\/data\/\d+\/\d{18}\/(\d{10}-\d{2}-\d{6})\.txt$/);
    if (filing) {
      if (filing[1] === HANGING_ACCESSION) return; // never answers
      const file = accessions.get(filing[1]);
      return file ? send(recorded(file), 'text/plain') : res.writeHead(404).end();
    }
    if (path === '/files/company_tickers.json') return send(recorded(INSIDERS_REPLAY_FILES.tickers), 'application/json');
    if (path === '/data/submissions/CIK0001318605.json') return send(recorded(INSIDERS_REPLAY_FILES.submissions), 'application/json');
    return res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        accessions,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}
