import { formatEther } from 'viem';
import { SIMULATED_WHALE_EVERY, parseBlock, simulatedWhaleTransfers, whalesReplayChain } from '../../src/whales';

// The workers' replay chain (offline mode) carries simulated whale-sized transfers, so the demo's
// feed, alerts and netflow have something to show; they are part of the chain, deterministic.
describe("the workers' replay chain", () => {
  const exchanges = ['0x28c6c06298d514db089934071355e5743bf21d60', '0xf977814e90da44bfa03b6295a0616a897441acec', '0xa9d1e08c7793af67e9d92fe308d5697fb81d3e43', '0x267be1c1d684f78cb4f6a176c4911b741e4ffdc0'];

  it('carries one 200-5,000 ETH transfer into or out of a seeded exchange wallet every tenth block, and none in the others', () => {
    const chain = whalesReplayChain();
    chain.append(60);
    const recorded = parseBlock(chain.rawBlock(chain.first + 1n)).nativeTransfers.length;
    const directions = new Set<string>();
    for (let n = chain.first; n <= chain.head; n++) {
      const block = parseBlock(chain.rawBlock(n));
      const simulated = simulatedWhaleTransfers(n);
      expect(simulated).toHaveLength(n % SIMULATED_WHALE_EVERY === 0n ? 1 : 0);
      expect(block.nativeTransfers).toHaveLength(recorded + simulated.length);
      for (const t of simulated) {
        const inBlock = block.nativeTransfers.find((x) => x.from === t.from && x.to === t.to);
        expect(inBlock?.rawAmount).toBe(t.rawAmount);
        const eth = Number(formatEther(t.rawAmount));
        expect(eth).toBeGreaterThanOrEqual(200);
        expect(eth).toBeLessThanOrEqual(5000);
        const exchangeIn = exchanges.includes(t.to);
        expect(exchangeIn || exchanges.includes(t.from)).toBe(true);
        directions.add(exchangeIn ? 'inflow' : 'outflow');
      }
    }
    expect(directions).toEqual(new Set(['inflow', 'outflow']));
    // The same chain in another process: the same blocks.
    const again = whalesReplayChain();
    again.append(60);
    expect(again.rawBlock(chain.first + 50n)).toEqual(chain.rawBlock(chain.first + 50n));
  });
});
