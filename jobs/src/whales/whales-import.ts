import { readFile } from 'node:fs/promises';
import type { DataSource } from 'typeorm';
import type { Hex } from 'viem';
import { EthParseError, parseBlock, parseReceipt, parseTransferLogs, unwrapJsonRpc, type ParsedBlock, type ParsedTransfer } from './eth.parse';
import type { WhalesPricer } from './whales-pricing';
import { prepareTransfers, type TokenResolver } from './whales-scan';
import { WHALES_CHAIN, recordBlock, recordTransfers, storedBlockTime } from './whales.store';

/** A file `import whales` cannot record; the message names the file and the field. Nothing of the import is written. */
export class WhalesImportError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'WhalesImportError';
  }
}

export type WhalesFileKind = 'block' | 'receipts' | 'logs';

export interface WhalesImportResult {
  file: string;
  kind: WhalesFileKind;
  /** Transfers the file holds (native ETH of a block, ERC-20 Transfer logs of receipts or logs). */
  transfers: number;
  /** Of them, new to the database (0 on a second import). */
  inserted: number;
}

interface ParsedFile {
  file: string;
  kind: WhalesFileKind;
  block?: ParsedBlock;
  transfers: ParsedTransfer[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * One JSON-RPC answer, with or without its envelope: eth_getBlockByNumber(n, true) (a block with
 * full transactions), eth_getTransactionReceipt (one receipt or an array of them), or
 * eth_getLogs / eth_getFilterLogs (an array of logs).
 */
export function parseWhalesFile(file: string, text: string): ParsedFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new WhalesImportError(file, `not JSON (${(error as Error).message})`);
  }
  try {
    const result = unwrapJsonRpc(doc);
    if (isObject(result) && 'transactions' in result) {
      const block = parseBlock(result);
      return { file, kind: 'block', block, transfers: block.nativeTransfers };
    }
    if (isObject(result) && 'logs' in result) return { file, kind: 'receipts', transfers: parseReceipt(result).transfers };
    if (Array.isArray(result) && result.every((item) => isObject(item) && 'logs' in item)) {
      return {
        file,
        kind: 'receipts',
        transfers: result.flatMap((receipt, i) => {
          try {
            return parseReceipt(receipt).transfers;
          } catch (error) {
            if (error instanceof EthParseError) throw new EthParseError(`[${i}].${error.message}`);
            throw error;
          }
        }),
      };
    }
    if (Array.isArray(result)) return { file, kind: 'logs', transfers: parseTransferLogs(result) };
    throw new WhalesImportError(
      file,
      `neither a block with full transactions (eth_getBlockByNumber), a transaction receipt nor logs (got ${result === null ? 'null' : typeof result})`,
    );
  } catch (error) {
    if (error instanceof EthParseError) throw new WhalesImportError(file, error.message);
    throw error;
  }
}

export interface WhalesImportOptions {
  tokens: TokenResolver;
  globalUsdThreshold: number;
  /** USD at block time (whales-pricing.ts); absent: transfers are recorded unpriced. */
  pricer?: WhalesPricer;
  now: Date;
  /** The block time of receipts and logs whose block is neither in the import nor recorded (receipts carry no time). */
  blockTime?: Date;
  chain?: string;
}

/**
 * Records JSON-RPC answers as the scanner would (idempotent: a transfer already recorded is left
 * as it is), every transfer kept, whatever its size. Blocks are recorded with their whale_blocks
 * row (but the scanner's checkpoint is not moved); receipts and logs take their block's time from
 * a block of the same import, else a recorded block, else `blockTime`. Every file is parsed
 * before anything is written, and everything is written in one transaction: a bad file writes nothing.
 */
export async function importWhaleFiles(db: DataSource, paths: readonly string[], opts: WhalesImportOptions): Promise<WhalesImportResult[]> {
  const chain = opts.chain ?? WHALES_CHAIN;
  const parsed: ParsedFile[] = [];
  for (const path of paths) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new WhalesImportError(path, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message);
    }
    parsed.push(parseWhalesFile(path, text));
  }

  const importedBlocks = new Map<string, ParsedBlock>();
  for (const p of parsed) if (p.block) importedBlocks.set(`${p.block.number}/${p.block.hash}`, p.block);
  const timeOf = async (p: ParsedFile, t: ParsedTransfer): Promise<Date> => {
    const block = importedBlocks.get(`${t.blockNumber}/${t.blockHash}`);
    if (block) return new Date(block.timestamp * 1000);
    const stored = await storedBlockTime(db, chain, t.blockNumber, t.blockHash as Hex);
    if (stored) return stored;
    if (opts.blockTime) return opts.blockTime;
    throw new WhalesImportError(
      p.file,
      `blockNumber ${t.blockNumber} (${t.blockHash}): block time unknown (a receipt or log carries none): import the block's ` +
        'eth_getBlockByNumber answer with it, or give the time (--block-time)',
    );
  };

  // Token metadata and block times first (I/O), then one transaction for every write.
  const plans: { file: ParsedFile; groups: { time: Date; records: Awaited<ReturnType<typeof prepareTransfers>> }[] }[] = [];
  for (const file of [...parsed].sort((a, b) => Number(b.kind === 'block') - Number(a.kind === 'block'))) {
    const byBlock = new Map<string, ParsedTransfer[]>();
    for (const t of file.transfers) {
      const key = `${t.blockNumber}/${t.blockHash}`;
      byBlock.set(key, [...(byBlock.get(key) ?? []), t]);
    }
    const groups = [];
    for (const transfers of byBlock.values()) {
      const time = file.block ? new Date(file.block.timestamp * 1000) : await timeOf(file, transfers[0]);
      const records = await prepareTransfers({ dataSource: db, tokens: opts.tokens, globalUsdThreshold: opts.globalUsdThreshold, pricer: opts.pricer }, transfers, time);
      groups.push({ time, records });
    }
    plans.push({ file, groups });
  }

  const results = await db.transaction(async (manager) => {
    const out = new Map<string, WhalesImportResult>();
    for (const { file, groups } of plans) {
      let inserted = 0;
      if (file.block) inserted += (await recordBlock(manager, chain, file.block, groups[0]?.records ?? [], opts.now)).transfersInserted;
      else for (const group of groups) inserted += await recordTransfers(manager, chain, group.time, group.records);
      out.set(file.file, { file: file.file, kind: file.kind, transfers: file.transfers.length, inserted });
    }
    return out;
  });
  return paths.map((path) => results.get(path) as WhalesImportResult);
}
