import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { FORM4_SAMPLE_FILES, INSIDERS_RECORDINGS_DIR, parseForm4, type ParsedForm4 } from './form4.parse';
import { importParsedFiling, type ImportFilingResult } from './insiders-import.store';
import { BARE_XML_ACCESSIONS } from './insiders-replay';
import type { InsiderSourceTag } from './insiders-sec.client';

const ACCESSION_IN_NAME = /\d{10}-\d{2}-\d{6}/;

/**
 * The key of a filing file whose document names no accession (bare ownershipDocument XML): the
 * accession in the file's name, or the one its origin names (recorded files), else `local-` and
 * 19 hex digits of the content's SHA-256, so importing the same file twice stores it once.
 */
export function accessionForFile(parsed: ParsedForm4, file: string, content: string | Buffer): string {
  if (parsed.accessionNumber) return parsed.accessionNumber;
  const name = basename(file);
  const fromName = name.match(ACCESSION_IN_NAME)?.[0] ?? BARE_XML_ACCESSIONS[name];
  if (fromName) return fromName;
  return `local-${createHash('sha256').update(content).digest('hex').slice(0, 19)}`;
}

/** Parses a Form 4 file (any wrapper) and stores it (idempotent). Throws Form4ParseError for a file that is not one. */
export async function importInsiderFile(
  db: DataSource | EntityManager,
  file: string,
  options: { now: Date; dataSource?: InsiderSourceTag },
): Promise<{ accession: string; parsed: ParsedForm4; result: ImportFilingResult }> {
  const content = readFileSync(file);
  const parsed = parseForm4(content);
  const accession = accessionForFile(parsed, file, content);
  const result = await importParsedFiling(db, parsed, { accessionNumber: accession, via: 'import', dataSource: options.dataSource ?? 'sec', now: options.now });
  return { accession, parsed, result };
}

/**
 * Every recorded filing, labelled 'sec-replay' (offline demo data, benchmarks and journeys). Not
 * in the seeds list: in live mode these rows would mix with EDGAR's; replay mode serves them
 * through the feed anyway.
 */
export async function seedRecordedInsiderFilings(db: DataSource | EntityManager, now: Date = new Date()): Promise<{ filings: number; lines: number }> {
  let filings = 0;
  let lines = 0;
  for (const file of FORM4_SAMPLE_FILES) {
    const { result } = await importInsiderFile(db, join(INSIDERS_RECORDINGS_DIR, file), { now, dataSource: 'sec-replay' });
    filings++;
    lines += result.lines;
  }
  return { filings, lines };
}
