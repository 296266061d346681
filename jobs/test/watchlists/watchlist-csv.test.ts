import { WatchlistCsvError, parseWatchlistCsv, watchlistToCsv } from '../../src/watchlists/watchlist-csv';
import { orderMismatch } from '../../src/watchlists/watchlist-rules';

function csvError(text: string): WatchlistCsvError {
  try {
    parseWatchlistCsv(text);
  } catch (error) {
    if (error instanceof WatchlistCsvError) return error;
    throw error;
  }
  throw new Error('expected a WatchlistCsvError');
}

describe('watchlist CSV (pure)', () => {
  it('reads the symbol column under a case-insensitive header, ignoring the other columns', () => {
    expect(parseWatchlistCsv('name,Symbol,type\nApple,AAPL,stock\nBitcoin,BTCUSDT,crypto\n')).toEqual({
      symbols: [
        { symbol: 'AAPL', line: 2 },
        { symbol: 'BTCUSDT', line: 3 },
      ],
      duplicates: 0,
    });
  });

  it('accepts a header-less single column with a BOM, CRLF line ends and blank lines', () => {
    expect(parseWatchlistCsv('\ufeffAAPL\r\n\r\n  msft  \r\nSPY')).toEqual({
      symbols: [
        { symbol: 'AAPL', line: 1 },
        { symbol: 'msft', line: 3 },
        { symbol: 'SPY', line: 4 },
      ],
      duplicates: 0,
    });
  });

  it('keeps a symbol repeated in the file once (any case) and counts the repeats', () => {
    const parsed = parseWatchlistCsv('symbol\nAAPL\naapl\nMSFT\nAAPL\n');
    expect(parsed.symbols.map((s) => s.symbol)).toEqual(['AAPL', 'MSFT']);
    expect(parsed.duplicates).toBe(2);
  });

  it('refuses several columns without a symbol header, naming the first line', () => {
    const error = csvError('ticker,name\nAAPL,Apple\n');
    expect([error.code, error.line]).toEqual(['missing_symbol_column', 1]);
  });

  it('refuses an unterminated quote as invalid CSV with its line', () => {
    const error = csvError('symbol\nAAPL\n"MSFT\n');
    expect([error.code, error.line]).toEqual(['invalid_csv', 3]);
  });

  it('refuses a file with no symbols (empty, or a header only)', () => {
    expect(csvError('').code).toBe('empty_csv');
    expect(csvError('symbol,name\n').code).toBe('empty_csv');
  });

  it('writes symbol,name,type with quoting where a field needs it', () => {
    const csv = watchlistToCsv([
      { symbol: 'AMZN', name: 'Amazon.com, Inc.', type: 'stock' },
      { symbol: 'X', name: 'Say "hi"', type: 'etf' },
    ]);
    expect(csv).toBe('symbol,name,type\nAMZN,"Amazon.com, Inc.",stock\nX,"Say ""hi""",etf\n');
  });

  it('neutralises cells a spreadsheet would run as formulas, leaving symbols intact', () => {
    const csv = watchlistToCsv([
      { symbol: 'AAPL', name: '=HYPERLINK("http://evil.example","x")', type: 'stock' },
      { symbol: '^GSPC', name: '@SUM(1+1)', type: '-crypto' },
      { symbol: 'MSFT', name: 'Microsoft - cloud', type: 'stock' },
    ]);
    expect(csv).toBe(
      'symbol,name,type\nAAPL,"\'=HYPERLINK(""http://evil.example"",""x"")",stock\n^GSPC,\'@SUM(1+1),\'-crypto\nMSFT,Microsoft - cloud,stock\n',
    );
    expect(parseWatchlistCsv(csv).symbols.map((s) => s.symbol)).toEqual(['AAPL', '^GSPC', 'MSFT']);
  });

  it('reads back what it writes', () => {
    const csv = watchlistToCsv([
      { symbol: 'AMZN', name: 'Amazon.com, Inc.', type: 'stock' },
      { symbol: '^GSPC', name: 'S&P 500 Index', type: 'index' },
    ]);
    expect(parseWatchlistCsv(csv).symbols).toEqual([
      { symbol: 'AMZN', line: 2 },
      { symbol: '^GSPC', line: 3 },
    ]);
  });
});

describe('orderMismatch', () => {
  it('accepts exactly a permutation', () => {
    expect(orderMismatch([1, 2, 3], [3, 1, 2])).toBeNull();
    expect(orderMismatch([], [])).toBeNull();
  });

  it('names the missing, unknown and repeated ids', () => {
    expect(orderMismatch([1, 2, 3, 4], [4, 9, 4, 1, 9])).toEqual({ missing: [2, 3], extra: [9], duplicated: [4, 9] });
  });
});
