// Where the insiders screens live: the dashboard's screener, company and insider pages, and the public research page.
export const INSIDERS_SCREENER_PATH = '/dashboard/insiders';
export const INSIDERS_RESEARCH_PATH = '/research/insiders';

/** A company's page: by ticker, or by CIK for an issuer without one. */
export function companyPath(key: string): string {
  return `${INSIDERS_SCREENER_PATH}/companies/${encodeURIComponent(key)}`;
}

export function insiderPath(cik: string): string {
  return `${INSIDERS_SCREENER_PATH}/insiders/${encodeURIComponent(cik)}`;
}

/** The key a company's page is found by. */
export function companyKey(company: { ticker: string | null; cik: string }): string {
  return company.ticker ?? company.cik;
}
