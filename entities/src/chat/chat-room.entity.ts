import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'chat_rooms' })
export class ChatRoom {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  // chat | trading_pair | announcement ...
  @Column({ type: 'varchar', length: 20, default: 'chat' })
  type: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  // e.g. BTC/USDT for a room about one pair.
  @Column({ type: 'varchar', length: 30, nullable: true })
  tradingPair: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
