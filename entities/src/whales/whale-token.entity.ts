import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** An ERC-20 token's symbol and decimals, from the token list or the token's own decimals()/symbol(). A cache. */
@Entity({ name: 'whale_tokens' })
@Check('chk_whale_tokens_address_lowercase', `"address" = lower("address")`)
export class WhaleToken {
  // The token contract, lowercase 0x + 40 hex digits.
  @PrimaryColumn({ type: 'varchar', length: 42 })
  address: string;

  // Null when the contract does not answer symbol() (nor bytes32).
  @Column({ type: 'varchar', length: 100, nullable: true })
  symbol: string | null;

  @Column({ type: 'smallint', nullable: true })
  decimals: number | null;

  // token-list | eth_call | unknown
  @Column({ type: 'varchar', length: 20 })
  source: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
