import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from '../accounts/user.entity';

/**
 * A user's Telegram chat: where the notifications domain sends the Telegram copies of their
 * notifications (one chat per user; linking another chat replaces it). Written when the bot
 * receives the user's one-time code; deleted by the user (unlink), by the account's deletion, and
 * when Telegram answers 403 (the bot was blocked or removed from the chat).
 */
@Entity({ name: 'telegram_links' })
@Unique('uq_telegram_links_user_id', ['userId'])
// A 403 unlinks every user of the chat.
@Index('ix_telegram_links_chat_id', ['chatId'])
export class TelegramLink {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  // Telegram chat ids have up to 52 significant bits (negative for groups).
  @Column({ type: 'bigint' })
  chatId: string;

  // The chat's @username, else the sender's (shown in settings); null when Telegram gave none.
  @Column({ type: 'varchar', length: 64, nullable: true })
  username: string | null;

  @Column({ type: 'timestamptz' })
  linkedAt: Date;
}
