import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const NEWS_FIXTURES = join(__dirname, '../../src/news/data');
export const fixture = (file: string) => join(NEWS_FIXTURES, file);

export interface NewsStandIn {
  server: Server;
  base: string;
  requests: { url: string; headers: IncomingMessage['headers']; at: number }[];
  close(): Promise<void>;
}

/**
 * A local stand-in for the feeds and EDGAR, serving the recorded files at their origin paths:
 * CoinDesk, Cointelegraph and Decrypt, and getcurrent pages 1 and 2 (the recorded start=0 and
 * start=700 pages). Also an HTML page, a feed that never answers, and EDGAR refusing (429, 503).
 */
export function startNewsStandIn(): Promise<NewsStandIn> {
  const body = (file: string) => readFileSync(fixture(file));
  const requests: NewsStandIn['requests'] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ url: req.url ?? '/', headers: req.headers, at: Date.now() });
    const xml = (file: string, type = 'application/rss+xml') => res.writeHead(200, { 'content-type': type }).end(body(file));
    switch (url.pathname) {
      case '/arc/outboundfeeds/rss':
        return xml('coindesk-rss-2025-12-13.xml');
      case '/rss':
        return xml('cointelegraph-rss-2025-12-12.xml');
      case '/feed':
        return xml('decrypt-feed-2025-12-12.xml');
      case '/cgi-bin/browse-edgar': {
        const start = url.searchParams.get('start');
        if (start === '0') return xml('edgar-getcurrent-all-forms-start0-2026-01-12.atom.xml', 'application/atom+xml');
        if (start === '100') return xml('edgar-getcurrent-all-forms-start700-2026-01-12.atom.xml', 'application/atom+xml');
        return res.writeHead(404).end();
      }
      case '/refusing/cgi-bin/browse-edgar':
        return res.writeHead(429, { 'retry-after': '120' }).end('Request Rate Threshold Exceeded');
      case '/down/cgi-bin/browse-edgar':
        return res.writeHead(503).end('busy');
      case '/html':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><head><title>Just a moment...</title></head><body></body></html>');
      case '/hang':
        return; // never answers: the client's timeout ends it
      default:
        return res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}
