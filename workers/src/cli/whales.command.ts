import { resolve } from 'node:path';
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import {
  DefiLlamaCoinsClient,
  TokenDirectory,
  WhaleLabelsError,
  WhaleTokenStore,
  WhalesImportError,
  createWhalesPricer,
  importWhaleFiles,
  loadWhalesConfig,
  parseLabelFile,
  transfersOfTx,
  importWhaleLabels,
  type TokenResolver,
} from '@tickerbell/jobs/whales';
import { CliError } from './cli-error';
import type { CliContext, CliIo } from './main';

/** `import` groups the file imports of every domain; other kinds add their own subcommand. */
function importGroup(program: Command): Command {
  return program.commands.find((c) => c.name() === 'import') ?? program.command('import').description('import data files');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export function registerWhalesCommands(program: Command, context: () => CliContext, io: CliIo): void {
  const out = (line: string) => io.out(line.endsWith('\n') ? line : `${line}\n`);

  importGroup(program)
    .command('whales')
    .description(
      'record Ethereum JSON-RPC answers as if scanned: a block with full transactions (eth_getBlockByNumber n true), transaction ' +
        'receipts (one or an array) or logs, with or without the JSON-RPC envelope; every transfer is kept; importing twice changes nothing',
    )
    .argument('<file...>', 'paths of the JSON files')
    .option('--block-time <iso>', "block time of receipts and logs whose block is neither imported with them nor recorded (receipts carry none)")
    .action(async (given: string[], opts: { blockTime?: string }) => {
      let blockTime: Date | undefined;
      if (opts.blockTime !== undefined) {
        blockTime = new Date(opts.blockTime);
        if (Number.isNaN(blockTime.getTime())) throw new CliError(`--block-time: not a date: ${opts.blockTime}`);
      }
      // `npm run cli` runs in the repository root: resolve a relative path where the operator typed it.
      const paths = given.map((name) => resolve(process.env.INIT_CWD ?? process.cwd(), name));
      const db = await context().db();
      const directory = new TokenDirectory({ cache: new WhaleTokenStore(db) });
      const tokens: TokenResolver = async (token) => {
        const info = await directory.get(token);
        return { symbol: info.symbol, decimals: info.decimals };
      };
      const config = loadWhalesConfig(process.env);
      // ETH from the stored bars; tokens from DefiLlama only when DEFILLAMA_COINS_URL is set (an import stays offline otherwise).
      const pricer = createWhalesPricer({
        db,
        coins: config.DEFILLAMA_COINS_URL ? new DefiLlamaCoinsClient({ baseUrl: config.DEFILLAMA_COINS_URL, timeoutMs: config.DEFILLAMA_TIMEOUT_MS, searchWidth: config.DEFILLAMA_SEARCH_WIDTH }) : null,
      });
      try {
        const results = await importWhaleFiles(db, paths, {
          tokens,
          pricer,
          globalUsdThreshold: config.WHALES_GLOBAL_USD_THRESHOLD,
          now: new Date(),
          blockTime,
        });
        for (const r of results) out(`${r.file}: ${r.kind}, ${plural(r.transfers, 'transfer')} (${r.inserted} new)`);
      } catch (error) {
        if (error instanceof WhalesImportError) throw new CliError(`${error.message} (nothing imported)`);
        throw error;
      }
    });

  const whales = program.command('whales').description('whale tracking (Ethereum transfers)');
  whales
    .command('import-labels')
    .description(
      'upsert address labels (whale_addresses) from a CSV (header row) or JSON array: address (EIP-55 or lowercase), label, address_type ' +
        '(exchange|fund|whale|bridge|protocol|other), exchange_name, balance_threshold (wei), is_active; every row checked first, nothing written on error. ' +
        'Transfers already recorded to or from an address whose exchange label changed are classified again (exchange inflow, outflow or ' +
        'transfer) and their hourly and daily exchange netflow rebuilt, in the same transaction',
    )
    .argument('<file>', 'path of the CSV or JSON file')
    .action(async (given: string) => {
      const path = resolve(process.env.INIT_CWD ?? process.cwd(), given);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        throw new CliError(`${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
      }
      let rows;
      try {
        rows = parseLabelFile(path, text);
      } catch (error) {
        if (error instanceof WhaleLabelsError) throw new CliError(error.message);
        throw error;
      }
      const db = await context().db();
      const source = `import:${path.split('/').pop()}`.slice(0, 200);
      const done = await db.transaction((manager) => importWhaleLabels(manager, [{ source, rows }], { addedBy: 'import' }));
      out(
        `${path}: ${rows.length} address${rows.length === 1 ? '' : 'es'} (${done.inserted} new, ${done.updated} updated); ` +
          `${plural(done.reclassified, 'recorded transfer')} reclassified` +
          (done.netflowHours ? `, exchange netflow rebuilt for ${plural(done.netflowHours, 'hour')}` : ''),
      );
    });

  whales
    .command('transfers')
    .description("print, as JSON, a transaction's recorded transfers (logIndex and token null for native ETH; amount in token units)")
    .requiredOption('--tx <hash>', 'transaction hash, 0x + 64 hex digits')
    .action(async (opts: { tx: string }) => {
      const hash = opts.tx.trim();
      if (!TX_HASH.test(hash)) throw new CliError(`--tx: expected a transaction hash (0x + 64 hex digits), got ${hash}`);
      const transfers = await transfersOfTx(await context().db(), hash);
      out(
        JSON.stringify(
          transfers.map((t) => ({
            logIndex: t.logIndex,
            token: t.token,
            tokenSymbol: t.tokenSymbol,
            from: t.from,
            to: t.to,
            amount: t.amount,
            rawAmount: t.rawAmount,
            usdValue: t.usdValue,
          })),
          null,
          2,
        ),
      );
    });
}
