import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../accounts/user.entity';

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

  // Private rooms are read and joined by their members only (who come in by an invite link: chat_room_invites).
  @Column({ type: 'boolean', default: false })
  isPrivate: boolean;

  // Seconds a member waits between two messages (0: off).
  @Column({ type: 'integer', default: 0 })
  slowModeSeconds: number;

  // Who created the room (null for seeded rooms); the room outlives its creator.
  @Column({ type: 'integer', nullable: true })
  createdBy: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by' })
  creator?: User | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
