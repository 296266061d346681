import { Writable } from 'node:stream';
import pino from 'pino';
import { repeatingErrorLog } from '@tickerbell/jobs';

/** A pino logger writing its lines to an array. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

describe('repeatingErrorLog: an outage logs each error once per window, with the repeats counted', () => {
  it('logs the first, counts the repeats within the window, and reports them with the next line', async () => {
    const { lines, logger } = capture();
    const log = repeatingErrorLog(logger, 'warn', 40);
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:6379');
    for (let i = 0; i < 5; i++) log({ queue: 'prices' }, refused, 'worker error');
    log({ queue: 'alerts' }, refused, 'worker error');
    log({ queue: 'prices' }, new Error('READONLY'), 'worker error');
    expect(lines.map((l) => [l.queue, l.err, l.repeatsSinceLast])).toEqual([
      ['prices', refused.message, undefined],
      ['alerts', refused.message, undefined],
      ['prices', 'READONLY', undefined],
    ]);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'worker error' });

    // Past the window, the next one is logged with the count of those left out.
    await new Promise((r) => setTimeout(r, 60));
    log({ queue: 'prices' }, refused, 'worker error');
    expect(lines.at(-1)).toMatchObject({ queue: 'prices', err: refused.message, repeatsSinceLast: 4 });
  });
});
