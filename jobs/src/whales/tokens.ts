import defaultTokenList from '@uniswap/default-token-list';
import { decodeFunctionResult, encodeFunctionData, erc20Abi, hexToString, isAddress, size, type Address, type Hex } from 'viem';
import { EthRpcError, type EthSource } from './eth-rpc.client';

export interface TokenInfo {
  /** Lowercase contract address. */
  address: Address;
  symbol: string | null;
  decimals: number | null;
  /** Where symbol/decimals came from: Uniswap's default token list, the contract itself, or nowhere (not an ERC-20 answering them). */
  source: 'token-list' | 'eth_call' | 'unknown';
}

/** Native ether, which has no contract. */
export const ETH_TOKEN = { address: null, symbol: 'ETH', decimals: 18 } as const;
export type EthToken = typeof ETH_TOKEN;

/** Persistent storage of looked-up tokens (helper T implements it on whale_tokens). */
export interface TokenCache {
  get(address: Address): Promise<TokenInfo | null>;
  put(info: TokenInfo): Promise<void>;
}

/** The token list entries the directory reads (the default list's shape). */
export interface TokenListEntry {
  chainId: number;
  address: string;
  symbol: string;
  decimals: number;
}

const MAINNET = 1;
/** Symbols are shown to users: printable characters only, and not a novel. */
const MAX_SYMBOL_LENGTH = 32;

/** A contract's symbol as shown: control and zero bytes removed, trimmed, null when nothing is left. */
function cleanSymbol(value: string): string | null {
  const cleaned = value.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '').trim().slice(0, MAX_SYMBOL_LENGTH);
  return cleaned === '' ? null : cleaned;
}

/** symbol() as ABI string, or as bytes32 (MKR, SAI and other early tokens). */
export function decodeSymbol(data: Hex): string | null {
  try {
    return cleanSymbol(decodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', data }));
  } catch {
    if (size(data) !== 32) return null;
    return cleanSymbol(hexToString(data, { size: 32 }));
  }
}

/** decimals() as uint8; a larger answer (some tokens declare uint256) is kept when it fits 0..255. */
export function decodeDecimals(data: Hex): number | null {
  try {
    const value = decodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', data });
    return Number.isInteger(value) && value >= 0 && value <= 255 ? value : null;
  } catch {
    return null;
  }
}

/**
 * Symbol and decimals of ERC-20 tokens: Uniswap's default token list (mainnet entries) first,
 * then the injected cache, then the contract itself (eth_call of decimals() and symbol(), the
 * answer stored in the cache). Answers are kept in memory. A node failure (retryable) answers
 * 'unknown' without storing it, so the next lookup asks again; a contract that does not answer
 * (reverts, no code) is stored as 'unknown'.
 */
export class TokenDirectory {
  private readonly list = new Map<string, TokenInfo>();
  private readonly memory = new Map<string, TokenInfo>();
  private readonly pending = new Map<string, Promise<TokenInfo>>();

  constructor(
    private readonly opts: {
      /** The node asked for tokens the list does not know (null: never ask). */
      source?: Pick<EthSource, 'call'> | null;
      cache?: TokenCache | null;
      /** Defaults to @uniswap/default-token-list. */
      tokens?: readonly TokenListEntry[];
    } = {},
  ) {
    for (const token of opts.tokens ?? (defaultTokenList.tokens as readonly TokenListEntry[])) {
      if (token.chainId !== MAINNET || !isAddress(token.address, { strict: false })) continue;
      const address = token.address.toLowerCase() as Address;
      this.list.set(address, { address, symbol: token.symbol, decimals: token.decimals, source: 'token-list' });
    }
  }

  /** ETH for null; otherwise the token's info (never throws for a node failure: 'unknown'). */
  get(address: null): Promise<EthToken>;
  get(address: Address): Promise<TokenInfo>;
  get(address: Address | null): Promise<TokenInfo | EthToken>;
  async get(address: Address | null): Promise<TokenInfo | EthToken> {
    if (address === null) return ETH_TOKEN;
    const key = address.toLowerCase() as Address;
    const known = this.memory.get(key) ?? this.list.get(key);
    if (known) return known;
    // Concurrent lookups of one token share one round of calls.
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const lookup = this.lookup(key).finally(() => this.pending.delete(key));
    this.pending.set(key, lookup);
    return lookup;
  }

  /** The token-list entry only (no I/O). */
  fromList(address: Address): TokenInfo | null {
    return this.list.get(address.toLowerCase()) ?? null;
  }

  private async lookup(address: Address): Promise<TokenInfo> {
    const cached = await this.opts.cache?.get(address);
    if (cached) {
      this.memory.set(address, cached);
      return cached;
    }
    const source = this.opts.source;
    if (!source) return { address, symbol: null, decimals: null, source: 'unknown' };
    let transient = false;
    const ask = async <T>(functionName: 'decimals' | 'symbol', decode: (data: Hex) => T | null): Promise<T | null> => {
      try {
        return decode(await source.call(address, encodeFunctionData({ abi: erc20Abi, functionName })));
      } catch (error) {
        if (!(error instanceof EthRpcError) || error.retryable) transient = true;
        return null;
      }
    };
    const [decimals, symbol] = await Promise.all([ask('decimals', decodeDecimals), ask('symbol', decodeSymbol)]);
    const info: TokenInfo = { address, symbol, decimals, source: decimals === null && symbol === null ? 'unknown' : 'eth_call' };
    // Half an answer after a node failure is not stored: the next lookup asks again.
    if (!transient) {
      await this.opts.cache?.put(info);
      this.memory.set(address, info);
    }
    return info;
  }
}
