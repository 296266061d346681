// HTTP shapes of the whales domain (Ethereum transfers scanned block by block): plain types and
// constants with no runtime imports; the web client imports this file as
// `@tickerbell/jobs/whales/shapes`. Meanings in docs/whales.md.

/** What a transfer is, relative to the labelled addresses (whale_addresses.address_type 'exchange') and the zero address. */
export const WHALE_TRANSACTION_TYPES = ['transfer', 'exchange_inflow', 'exchange_outflow', 'mint', 'burn'] as const;
export type WhaleTransactionType = (typeof WHALE_TRANSACTION_TYPES)[number];

/** 'unknown': no price at block time, so no USD value (said so rather than guessed). */
export const WHALE_PRICE_STATUSES = ['priced', 'unknown'] as const;
export type WhalePriceStatus = (typeof WHALE_PRICE_STATUSES)[number];

/** One recorded transfer (native ETH or an ERC-20 Transfer log). Addresses and hashes lowercase. */
export interface WhaleTransferView {
  txHash: string;
  /** Position of the Transfer log in the block; null for native ETH. */
  logIndex: number | null;
  /** Token contract; null for ETH. */
  token: string | null;
  /** Null when the token's symbol is unknown. */
  tokenSymbol: string | null;
  from: string;
  /** Null for a contract creation. */
  to: string | null;
  /** Decimal string in token units; null while the token's decimals are unknown. */
  amount: string | null;
  /** Integer string in the token's base units (wei for ETH). */
  rawAmount: string;
  /** USD at block time, 2 decimals; null when the price is unknown. */
  usdValue: string | null;
  priceStatus: WhalePriceStatus;
  transactionType: WhaleTransactionType;
  /** Crossed a watched address's threshold or the global USD threshold. */
  isWhale: boolean;
  blockNumber: string;
  blockHash: string;
  /** ISO 8601 UTC. */
  blockTime: string;
}
