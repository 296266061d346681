import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { User } from '../accounts/user.entity';
import { inList } from '../sql';
import { ChatRoom } from './chat-room.entity';

@Entity({ name: 'chat_messages' })
// A room's history, newest first.
@Index('ix_chat_messages_room_created_at', ['roomId', 'createdAt'])
// Cursor paging (before / after a message id) within a room.
@Index('ix_chat_messages_room_id_id', ['roomId', 'id'])
@Check('chk_chat_messages_length', 'char_length("message") <= 2000')
@Check('chk_chat_messages_deleted_by', inList('deleted_by', ['author', 'moderator']))
@Check('chk_chat_messages_sentiment', inList('sentiment', ['bullish', 'bearish']))
export class ChatMessage {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'integer' })
  roomId: number;

  @ManyToOne(() => ChatRoom, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'room_id' })
  room?: ChatRoom;

  // Null for system messages.
  @Index('ix_chat_messages_user_id')
  @Column({ type: 'integer', nullable: true })
  userId: number | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User | null;

  @Column({ type: 'text' })
  message: string;

  // user_message | system | bot ...
  @Column({ type: 'varchar', length: 20, default: 'user_message' })
  messageType: string;

  // A reply outlives the message it answered.
  @Index('ix_chat_messages_reply_to_message_id')
  @Column({ type: 'bigint', nullable: true })
  replyToMessageId: string | null;

  @ManyToOne(() => ChatMessage, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'reply_to_message_id' })
  replyToMessage?: ChatMessage | null;

  // bullish | bearish | null.
  @Column({ type: 'varchar', length: 8, nullable: true })
  sentiment: string | null;

  // Upper-case symbols of the $CASHTAGS in the text, in order, without duplicates.
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  cashtags: string[];

  // Users mentioned (resolved at posting: members of the room).
  @Column({ type: 'integer', array: true, default: () => "'{}'" })
  mentionUserIds: number[];

  // A thread root's replies, kept by the post transaction.
  @Column({ type: 'integer', default: 0 })
  replyCount: number;

  @Column({ type: 'timestamptz', nullable: true })
  lastReplyAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  editedAt: Date | null;

  // A deleted message stays (text blanked) so its replies keep their parent.
  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  // author | moderator.
  @Column({ type: 'varchar', length: 10, nullable: true })
  deletedBy: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
