// The prospectus parser's throughput, for `npm run bench -- lockups` (bench/lockups.bench.ts calls benchParse).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCKUPS_RECORDINGS_DIR, LOCKUPS_REPLAY_FILES, SIMULATED_OFFERINGS, simulatedProspectusHtml } from '../jobs/src/lockups/lockups-replay';
import { parseProspectus } from '../jobs/src/lockups/prospectus.parse';

const SECTIONS = 1_000;

/**
 * 1,000 prospectus lock-up sections built from the recorded shapes: the two real passages (Airbnb's
 * 424B4 excerpt, ~25 KB of HTML with its release table; Traws' "Lock-up Agreements") and variants of
 * the Airbnb excerpt with other names, dates, prices, share counts and lock-up terms (the replay's
 * simulated offerings over successive days), each parsed in full by parseProspectus after a warm-up.
 */
export async function benchParse(): Promise<{ sections: number; perSecond: number; ms: number }> {
  const abnb = readFileSync(join(LOCKUPS_RECORDINGS_DIR, LOCKUPS_REPLAY_FILES.abnb), 'utf8');
  const traw = readFileSync(join(LOCKUPS_RECORDINGS_DIR, LOCKUPS_REPLAY_FILES.traw), 'utf8');
  const documents: string[] = [abnb, traw];
  for (let day = 0; documents.length < SECTIONS; day += 1) {
    for (const offering of SIMULATED_OFFERINGS(new Date(Date.UTC(2026, 0, 5 + day, 15)))) {
      if (documents.length >= SECTIONS) break;
      documents.push(day % 10 === 9 ? traw.replace('90&#160;days', `${90 + day}&#160;days`) : simulatedProspectusHtml(abnb, offering));
    }
  }
  for (const html of documents.slice(0, 50)) parseProspectus(html);
  const started = performance.now();
  let read = 0;
  for (const html of documents) if (parseProspectus(html).tranches.length) read += 1;
  const ms = performance.now() - started;
  if (read !== documents.length) throw new Error(`benchParse: ${documents.length - read} of ${documents.length} sections had no release step`);
  return { sections: documents.length, perSecond: Math.round((documents.length / ms) * 1000), ms: Math.round(ms) };
}
