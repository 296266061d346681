// The table of transaction lines shared by the screener, the company page and the insider page.
// On phones each line is a card (data-table--cards): the column names move beside the values.
import { Link } from 'react-router-dom';
import type { InsiderDataSource, InsiderTradeRow } from '@tickerbell/jobs/insiders/shapes';
import {
  DATA_SOURCE_LABELS,
  codeMeaning,
  codeShortLabel,
  filedParts,
  formatPricePerShare,
  formatShares,
  formatUsd,
  rolesText,
} from './insiders-client';
import { companyKey, companyPath, insiderPath } from './insiders-paths';

/** A row's data source, when it is not live EDGAR data. */
export function SourceBadge({ source }: { source: InsiderDataSource }) {
  if (source === 'sec') return null;
  return (
    <span className={`badge insider-badge--${source}`} title={DATA_SOURCE_LABELS[source]}>
      {source === 'simulated' ? 'Simulated' : 'Replay'}
    </span>
  );
}

/** Says when some rows are recorded or simulated, not live EDGAR data. */
export function ReplayNote({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <p className="insider-note" role="note">
      <strong>Not live data:</strong> rows marked <em>Replay</em> come from recorded SEC filings and rows marked <em>Simulated</em> are varied copies of them (the
      offline demo). The live EDGAR source is off or has not read these companies yet.
    </p>
  );
}

export function CodeBadge({ row }: { row: Pick<InsiderTradeRow, 'transactionCode' | 'countsAs'> }) {
  const tone = row.countsAs ?? 'other';
  return (
    <span className={`insider-code insider-code--${tone}`} title={`${row.transactionCode}: ${codeMeaning(row.transactionCode)}`}>
      {row.transactionCode}
      <span className="insider-code__word"> {codeShortLabel(row.transactionCode)}</span>
      <span className="visually-hidden"> ({codeMeaning(row.transactionCode)})</span>
    </span>
  );
}

function Flags({ row }: { row: InsiderTradeRow }) {
  return (
    <span className="insider-flags">
      {row.rule10b5One === true && (
        <span className="badge insider-badge--plan" title="Made under a Rule 10b5-1 trading plan: not counted in the discretionary sentiment">
          10b5-1
        </span>
      )}
      {row.traderPattern === 'routine' && (
        <span className="badge" title="Routine: this insider traded in the same calendar month in each of the 3 previous years">
          Routine
        </span>
      )}
      {row.traderPattern === 'opportunistic' && (
        <span className="badge insider-badge--opportunistic" title="Opportunistic: not in this insider’s usual calendar month">
          Opportunistic
        </span>
      )}
      {row.table === 'derivative' && (
        <span className="badge" title={`Derivative security (Table II)${row.securityTitle ? `: ${row.securityTitle}` : ''}`}>
          Derivative
        </span>
      )}
      <SourceBadge source={row.dataSource} />
    </span>
  );
}

interface TradesTableProps {
  rows: readonly InsiderTradeRow[];
  caption: string;
  /** Rows that arrived since the page was opened: highlighted. */
  newIds?: ReadonlySet<string>;
  showCompany?: boolean;
  showInsider?: boolean;
  busy?: boolean;
}

export function TradesTable({ rows, caption, newIds, showCompany = true, showInsider = true, busy = false }: TradesTableProps) {
  return (
    <div className="table-scroll insider-table-wrap" role="region" aria-label={caption} tabIndex={0} aria-busy={busy}>
      <table className="data-table data-table--cards data-table--grid-cards insider-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Filed</th>
            <th scope="col">Traded</th>
            {showCompany && <th scope="col">Company</th>}
            {showInsider && <th scope="col">Insider</th>}
            <th scope="col" className="insider-type-cell">
              Type
            </th>
            <th scope="col" className="num">
              Shares
            </th>
            <th scope="col" className="num">
              Price
            </th>
            <th scope="col" className="num">
              Value
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const fresh = newIds?.has(row.id) === true;
            const sign = row.acquiredDisposed === 'D' ? '−' : row.acquiredDisposed === 'A' ? '+' : '';
            const filed = filedParts(row);
            return (
              <tr key={row.id} className={fresh ? 'insider-row--new data-table__row--fresh' : undefined} data-row-id={row.id}>
                <td data-label="Filed" className="nowrap">
                  {filed.date}
                  {fresh && <span className="badge insider-badge--new">New</span>}
                  <span className="data-table__sub">
                    {filed.time && <>{filed.time} · </>}
                    {row.secUrl ? (
                      <a href={row.secUrl} target="_blank" rel="noreferrer">
                        Form {row.formType}
                        <span className="visually-hidden"> {row.accessionNumber} on sec.gov (opens in a new tab)</span>
                      </a>
                    ) : (
                      <>Form {row.formType}</>
                    )}
                  </span>
                </td>
                <td data-label="Traded" className="nowrap">
                  {row.transactionDate}
                </td>
                {showCompany && (
                  <td data-label="Company" className="insider-company-cell">
                    <Link to={companyPath(companyKey({ ticker: row.ticker, cik: row.companyCik }))} className="insider-ticker">
                      {row.ticker ?? `CIK ${row.companyCik}`}
                    </Link>
                    <span className="data-table__sub insider-clip" title={row.companyName}>
                      {row.companyName}
                    </span>
                  </td>
                )}
                {showInsider && (
                  <td data-label="Insider" className="insider-insider-cell">
                    <Link to={insiderPath(row.insiderCik)}>{row.insiderName}</Link>
                    <span className="data-table__sub">{rolesText(row)}</span>
                    {row.coOwners.length > 0 && <span className="data-table__sub">Jointly with {row.coOwners.map((owner) => owner.name).join(', ')}</span>}
                  </td>
                )}
                <td data-label="Type" className="insider-type-cell">
                  <CodeBadge row={row} />
                  <Flags row={row} />
                </td>
                <td data-label="Shares" className="num">
                  {sign}
                  {formatShares(row.sharesTraded)}
                  {row.sharesOwnedAfter !== null && (
                    <span className="data-table__sub">
                      owns {formatShares(row.sharesOwnedAfter)}
                      {row.directOrIndirect === 'I' && ` (${row.natureOfOwnership ?? 'indirect'})`}
                    </span>
                  )}
                </td>
                <td data-label="Price" className="num">
                  {formatPricePerShare(row.pricePerShare)}
                  {row.isWeightedPrice && (
                    <span className="data-table__sub" title={row.priceFootnote ?? 'A weighted average of several trades'}>
                      weighted avg.
                    </span>
                  )}
                </td>
                <td data-label="Value" className="num insider-strong">
                  {formatUsd(row.totalValue)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
