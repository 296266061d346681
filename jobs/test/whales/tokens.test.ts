import { encodeFunctionResult, erc20Abi, stringToHex, type Address } from 'viem';
import { EthRpcClient } from '../../src/whales/eth-rpc.client';
import { REPLAY_TOKENS, ReplayChain, startReplayRpcServer, type ReplayRpcServer } from '../../src/whales/eth-replay';
import { ETH_TOKEN, TokenDirectory, decodeSymbol, type TokenCache, type TokenInfo } from '../../src/whales/tokens';

const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
/** In the recorded receipt (block 17,451,262) and not in the token list: the replay node answers "0x" for it. */
const UNLISTED = '0x01f6f4d612649741c895c1dacdbc98f359594d43';
const [RPLY, RB32] = REPLAY_TOKENS;

let node: ReplayRpcServer;
beforeAll(async () => {
  node = await startReplayRpcServer(ReplayChain.fromRecordings({ length: 2 }));
});
afterAll(() => node.close());
beforeEach(() => {
  node.requests.length = 0;
});

/** The cache as helper T's whale_tokens table behaves: keyed by address, last write wins. */
function memoryCache(): TokenCache & { rows: Map<string, TokenInfo> } {
  const rows = new Map<string, TokenInfo>();
  return {
    rows,
    get: async (address) => rows.get(address) ?? null,
    put: async (info) => void rows.set(info.address, info),
  };
}
const source = (retries = 0) => new EthRpcClient({ url: node.url, kind: 'replay', retries, backoffMs: 1 });

describe('TokenDirectory', () => {
  it('answers listed tokens from the Uniswap default list without asking the node, and ETH for null', async () => {
    const tokens = new TokenDirectory({ source: source(), cache: memoryCache() });
    expect(await tokens.get(WETH)).toEqual({ address: WETH.toLowerCase(), symbol: 'WETH', decimals: 18, source: 'token-list' });
    expect(await tokens.get('0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce')).toMatchObject({ symbol: 'SHIB', decimals: 18 });
    expect(await tokens.get(null)).toBe(ETH_TOKEN);
    expect(ETH_TOKEN).toEqual({ address: null, symbol: 'ETH', decimals: 18 });
    expect(node.requests).toHaveLength(0);
  });

  it('asks the contract (decimals(), symbol()) for an unlisted token, stores the answer, and then answers from memory or the cache', async () => {
    const cache = memoryCache();
    const tokens = new TokenDirectory({ source: source(), cache });
    const expected = { address: RPLY.address, symbol: 'RPLY', decimals: 6, source: 'eth_call' };
    expect(await tokens.get(RPLY.address)).toEqual(expected);
    expect(node.requests.map((r) => r.method)).toEqual(['eth_call', 'eth_call']);
    expect(cache.rows.get(RPLY.address)).toEqual(expected);
    expect(await tokens.get(RPLY.address.toUpperCase().replace('0X', '0x') as Address)).toEqual(expected);
    // A new process (a new directory) on the same table.
    expect(await new TokenDirectory({ source: source(), cache }).get(RPLY.address)).toEqual(expected);
    expect(node.requests).toHaveLength(2);
  });

  it('reads a bytes32 symbol', async () => {
    expect(await new TokenDirectory({ source: source() }).get(RB32.address)).toEqual({ address: RB32.address, symbol: 'RB32', decimals: 8, source: 'eth_call' });
  });

  it('stores a contract that answers neither as unknown', async () => {
    const cache = memoryCache();
    const info = await new TokenDirectory({ source: source(), cache }).get(UNLISTED);
    expect(info).toEqual({ address: UNLISTED, symbol: null, decimals: null, source: 'unknown' });
    expect(cache.rows.get(UNLISTED)).toEqual(info);
  });

  it('answers unknown without storing it when the node fails, and asks again next time', async () => {
    const cache = memoryCache();
    const tokens = new TokenDirectory({ source: source(0), cache });
    node.failNext(2, 503);
    expect(await tokens.get(RPLY.address)).toMatchObject({ source: 'unknown', symbol: null });
    expect(cache.rows.size).toBe(0);
    expect(await tokens.get(RPLY.address)).toMatchObject({ source: 'eth_call', symbol: 'RPLY' });
  });

  it('shares one round of calls between concurrent lookups of a token', async () => {
    const tokens = new TokenDirectory({ source: source() });
    const answers = await Promise.all([tokens.get(RB32.address), tokens.get(RB32.address), tokens.get(RB32.address)]);
    expect(new Set(answers).size).toBe(1);
    expect(node.requests).toHaveLength(2);
  });

  it('without a node, an unlisted token is unknown (and a custom list can replace the default)', async () => {
    const tokens = new TokenDirectory({ tokens: [{ chainId: 1, address: RPLY.address, symbol: 'LISTED', decimals: 2 }, { chainId: 10, address: RB32.address, symbol: 'OP', decimals: 2 }] });
    expect(await tokens.get(RPLY.address)).toMatchObject({ symbol: 'LISTED', source: 'token-list' });
    expect(await tokens.get(RB32.address)).toMatchObject({ source: 'unknown' });
    expect(tokens.fromList(WETH)).toBeNull();
  });
});

describe('decodeSymbol', () => {
  it('reads ABI strings and bytes32, strips zero and control bytes, and answers null for garbage', () => {
    expect(decodeSymbol(encodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', result: ' USDT\u0000' }))).toBe('USDT');
    expect(decodeSymbol(stringToHex('MKR', { size: 32 }))).toBe('MKR');
    expect(decodeSymbol('0x')).toBeNull();
    expect(decodeSymbol(`0x${'00'.repeat(32)}`)).toBeNull();
    expect(decodeSymbol('0x1234')).toBeNull();
  });
});
