import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Webhook events already received, so a redelivered event (Stripe retries) is handled once. */
@Entity({ name: 'processed_events' })
export class ProcessedEvent {
  // e.g. stripe.
  @PrimaryColumn({ type: 'varchar', length: 30 })
  provider: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  eventId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  receivedAt: Date;

  // Null until handling finished.
  @Column({ type: 'timestamptz', nullable: true })
  processedAt: Date | null;
}
