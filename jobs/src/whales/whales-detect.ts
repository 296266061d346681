import Decimal from 'decimal.js';
import type { ParsedTransfer } from './eth.parse';
import type { WhaleTransactionType } from './whales.shapes';

/** Pure detection: what a transfer is relative to labelled addresses, and whether it is a whale transfer. */

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** What detection reads of a watched address (a whale_addresses row; users' watched addresses are rows there too). */
export interface DetectionLabel {
  addressType: string | null;
  /** Token base units (wei for ETH), or null: no per-address threshold. */
  balanceThreshold: bigint | null;
}

export type LabelLookup = (address: string) => DetectionLabel | undefined;

const isExchange = (label: DetectionLabel | undefined) => label?.addressType === 'exchange';

/**
 * mint (from the zero address) and burn (to the zero address) first; then exchange inflow (to an
 * exchange from elsewhere) and outflow (from an exchange to elsewhere); a move between two
 * exchange wallets, or between unlabelled ones, is a plain transfer.
 */
export function classifyTransfer(transfer: Pick<ParsedTransfer, 'from' | 'to' | 'token'>, labels: LabelLookup): WhaleTransactionType {
  if (transfer.token !== null && transfer.from === ZERO_ADDRESS) return 'mint';
  if (transfer.token !== null && transfer.to === ZERO_ADDRESS) return 'burn';
  const fromExchange = isExchange(labels(transfer.from));
  const toExchange = transfer.to !== null && isExchange(labels(transfer.to));
  if (toExchange && !fromExchange) return 'exchange_inflow';
  if (fromExchange && !toExchange) return 'exchange_outflow';
  return 'transfer';
}

/**
 * A whale transfer: its USD value reaches the global threshold (WHALES_GLOBAL_USD_THRESHOLD, any token, ETH included), or it involves a watched address
 * whose balanceThreshold it reaches. balanceThreshold is in base units, so it applies to native ETH
 * only (wei); token transfers count through their USD value.
 */
export function isWhaleTransfer(
  transfer: Pick<ParsedTransfer, 'from' | 'to' | 'token' | 'rawAmount'>,
  usdValue: string | null,
  labels: LabelLookup,
  globalUsdThreshold: number,
): boolean {
  // Decimal, not float: a value equal to the threshold is a whale transfer, exactly.
  if (usdValue !== null && new Decimal(usdValue).gte(globalUsdThreshold)) return true;
  if (transfer.token !== null) return false;
  for (const address of [transfer.from, transfer.to]) {
    const threshold = address === null ? null : labels(address)?.balanceThreshold;
    if (threshold !== null && threshold !== undefined && transfer.rawAmount >= threshold) return true;
  }
  return false;
}
