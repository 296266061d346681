import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { FORM4_SAMPLE_FILES, INSIDERS_RECORDINGS_DIR, importInsiderFile, importParsedFiling, parseForm4 } from '@tickerbell/jobs/insiders';

/** Every recorded Form 4 (jobs/src/insiders/data, origins in its README), stored as the pipeline stores them. */
export async function importRecordedFilings(db: DataSource, now: Date): Promise<void> {
  for (const file of FORM4_SAMPLE_FILES) await importInsiderFile(db, join(INSIDERS_RECORDINGS_DIR, file), { now, dataSource: 'sec' });
}

/** The one recorded open-market purchase: NCV, 2007-08-17, accession 0001240812-07-000005 (code P, 300 shares at $11.75). */
const NCV_PURCHASE = 'sec_form4_NCV_2007-08-17_code_P_X0202_pem-wrapped_fullsubmission.txt';

export interface PurchaseVariant {
  accession: string;
  ownerCik: string;
  ownerName: string;
  role: 'officer' | 'director' | 'other';
  shares: string;
  price: string;
  /** YYYY-MM-DD. */
  tradeDate: string;
  /** YYYYMMDDHHMMSS, New York time, as the SGML header writes it. */
  acceptedAt: string;
}

function replaced(text: string, pattern: RegExp | string, value: string): string {
  const next = text.replace(pattern, value);
  if (next === text) throw new Error(`the recorded NCV filing has no ${String(pattern)} to vary`);
  return next;
}

/**
 * A purchase for the cluster and officer-buy cases, which the recordings are too few for (issue
 * 13: build them in the database): the real NCV filing with its reporting owner, relationship,
 * dates, shares, price and accession varied, everything else as recorded. Stored as 'simulated'.
 */
export async function importPurchaseVariant(db: DataSource, variant: PurchaseVariant, now: Date): Promise<void> {
  let text = readFileSync(join(INSIDERS_RECORDINGS_DIR, NCV_PURCHASE), 'latin1');
  const filed = variant.acceptedAt.slice(0, 8);
  text = replaced(text, /0001240812-07-000005/g, variant.accession);
  text = replaced(text, /<ACCEPTANCE-DATETIME>\d{14}/, `<ACCEPTANCE-DATETIME>${variant.acceptedAt}`);
  text = replaced(text, /(CONFORMED PERIOD OF REPORT:\s*)\d{8}/, `$1${variant.tradeDate.replaceAll('-', '')}`);
  text = replaced(text, /(FILED AS OF DATE:\s*)\d{8}/, `$1${filed}`);
  text = replaced(text, /(DATE AS OF CHANGE:\s*)\d{8}/, `$1${filed}`);
  text = replaced(text, /LEMESEVSKI ELIZABETH/g, variant.ownerName);
  text = replaced(text, /0001240808/g, variant.ownerCik);
  text = replaced(text, /(<periodOfReport>)2007-08-15/, `$1${variant.tradeDate}`);
  text = replaced(text, /(<transactionDate>\s*<value>)2007-08-17/, `$1${variant.tradeDate}`);
  text = replaced(text, /(<transactionShares>\s*<value>)300(<\/value>)/, `$1${variant.shares}$2`);
  text = replaced(text, /(<transactionPricePerShare>\s*<value>)11\.75(<\/value>)/, `$1${variant.price}$2`);
  if (variant.role === 'officer') {
    text = replaced(text, '<isOfficer>0</isOfficer>', '<isOfficer>1</isOfficer>');
    text = replaced(text, '<isOther>1</isOther>', '<isOther>0</isOther>');
    text = replaced(text, '<otherText>Affiliated Person</otherText>', '<officerTitle>Chief Executive Officer</officerTitle>');
  } else if (variant.role === 'director') {
    text = replaced(text, '<isDirector>0</isDirector>', '<isDirector>1</isDirector>');
    text = replaced(text, '<isOther>1</isOther>', '<isOther>0</isOther>');
    text = replaced(text, /\s*<otherText>Affiliated Person<\/otherText>/, '');
  }
  const parsed = parseForm4(text);
  await importParsedFiling(db, parsed, { accessionNumber: variant.accession, via: 'import', dataSource: 'simulated', now });
}

/** Three insiders of NCV buying on 2026-11-17, -18 and -19: a cluster buy on 2026-11-20. */
export const CLUSTER: readonly PurchaseVariant[] = [
  { accession: '0009999999-26-000101', ownerCik: '0009999801', ownerName: 'OFFICER ONE', role: 'officer', shares: '5000', price: '12.10', tradeDate: '2026-11-17', acceptedAt: '20261117170000' },
  { accession: '0009999999-26-000102', ownerCik: '0009999802', ownerName: 'DIRECTOR TWO', role: 'director', shares: '12000', price: '12.40', tradeDate: '2026-11-18', acceptedAt: '20261118170000' },
  { accession: '0009999999-26-000103', ownerCik: '0009999803', ownerName: 'AFFILIATE THREE', role: 'other', shares: '2500', price: '11.95', tradeDate: '2026-11-19', acceptedAt: '20261119170000' },
];
