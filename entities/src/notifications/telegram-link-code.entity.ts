import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from '../accounts/user.entity';

/**
 * A one-time code that links a Telegram chat to a user: shown in settings, sent to the bot
 * (`/start <code>`), valid for 15 minutes and once. Only its SHA-256 is stored (the code is shown
 * once, when it is made), like the other emailed or shown tokens.
 */
@Entity({ name: 'telegram_link_codes' })
@Unique('uq_telegram_link_codes_code_hash', ['codeHash'])
export class TelegramLinkCode {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_telegram_link_codes_user_id')
  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  // Hex SHA-256 of the code (upper case, as shown).
  @Column({ type: 'varchar', length: 64 })
  codeHash: string;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
