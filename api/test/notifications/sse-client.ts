import http from 'node:http';

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** A minimal EventSource for tests: raw http, parses events, lets a test wait for some. */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  private request?: http.ClientRequest;
  private response?: http.IncomingMessage;
  private waiters: { count: number; resolve: () => void }[] = [];

  static open(url: string, headers: Record<string, string>): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      client.request = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (response) => {
        client.response = response;
        client.status = response.statusCode ?? 0;
        response.setEncoding('utf8');
        let buffer = '';
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            client.parse(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
          // The stream is open once its first block (retry:) has arrived.
          resolve(client);
        });
        response.on('end', () => resolve(client));
      });
      client.request.on('error', reject);
    });
  }

  private parse(block: string): void {
    const event: SseEvent = { data: '' };
    const data: string[] = [];
    let isEvent = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('id: ')) ((event.id = line.slice(4)), (isEvent = true));
      else if (line.startsWith('event: ')) ((event.event = line.slice(7)), (isEvent = true));
      else if (line.startsWith('data: ')) (data.push(line.slice(6)), (isEvent = true));
    }
    if (!isEvent) return;
    event.data = data.join('\n');
    this.events.push(event);
    this.waiters = this.waiters.filter((w) => (this.events.length >= w.count ? (w.resolve(), false) : true));
  }

  /** Resolves when `count` events have arrived in all (rejects after the timeout). */
  waitFor(count: number, timeoutMs = 5000): Promise<SseEvent[]> {
    if (this.events.length >= count) return Promise.resolve(this.events);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${this.events.length} of ${count} events after ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.events);
        },
      });
    });
  }

  close(): void {
    this.request?.destroy();
    this.response?.destroy();
  }
}
