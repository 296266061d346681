import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The health of one external data source, shown on /status and in the admin view. */
@Entity({ name: 'source_health' })
export class SourceHealth {
  // e.g. cftc, sec-edgar, polymarket.
  @PrimaryColumn({ type: 'varchar', length: 50 })
  source: string;

  @Column({ type: 'timestamptz', nullable: true })
  lastSuccessAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastErrorAt: Date | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  // Time of the newest data the source delivered (freshness), not of the fetch.
  @Column({ type: 'timestamptz', nullable: true })
  lastDataAt: Date | null;

  @Column({ type: 'integer', default: 0 })
  consecutiveFailures: number;

  @Column({ type: 'jsonb', nullable: true })
  details: Record<string, unknown> | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
