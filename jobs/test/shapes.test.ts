// The HTTP shapes (jobs/src/<domain>/<domain>.shapes.ts) are what the web client imports as
// `@tickerbell/jobs/<domain>/shapes`: plain types and constants. A runtime import in one would put
// server code (zod, TypeORM, ioredis...) into the browser bundle, so only other shapes (and a few pure
// libraries, BROWSER_SAFE_LIBRARIES) may be imported.
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../src');

/** Pure libraries a shape may use at run time: small, no Node APIs, fine in the browser bundle. */
const BROWSER_SAFE_LIBRARIES = ['decimal.js'];

/** Every domain's shapes: `<domain>.shapes.ts` and the other `*.shapes.ts` files it re-exports. */
function shapeFiles(): string[] {
  return fs
    .readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      fs
        .readdirSync(path.join(SRC, entry.name))
        .filter((name) => name.endsWith('.shapes.ts'))
        .map((name) => path.join(SRC, entry.name, name)),
    );
}

/** Every module specifier of an import or re-export statement, with whether it is type-only. */
function importsOf(source: string): { specifier: string; typeOnly: boolean }[] {
  const pattern = /^\s*(import|export)\s+(type\s+)?[^'"]*?\s*from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
  return [...source.matchAll(pattern)].map((match) => ({ specifier: match[3] ?? match[4] ?? '', typeOnly: match[2] !== undefined }));
}

describe('HTTP shapes', () => {
  it('exist for the domains the web client reads', () => {
    const domains = shapeFiles().map((file) => path.basename(path.dirname(file)));
    expect(domains).toEqual(expect.arrayContaining(['accounts', 'alerts', 'chart-layouts', 'cot', 'market-hours', 'notifications', 'prices', 'watchlists']));
  });

  it.each(shapeFiles().map((file) => [path.relative(SRC, file), file]))('%s imports nothing but other shapes at run time', (_name, file) => {
    const runtime = importsOf(fs.readFileSync(file, 'utf8')).filter((entry) => !entry.typeOnly);
    for (const { specifier } of runtime.filter((entry) => !BROWSER_SAFE_LIBRARIES.includes(entry.specifier))) {
      expect(specifier).toMatch(/^\.{1,2}\/([a-z-]+\/)?[a-z-]+\.shapes$/);
    }
  });
});
