import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from '../accounts/user.entity';
import { inList } from '../sql';
import { ChatRoom } from './chat-room.entity';

export const CHAT_ROOM_ROLES = ['owner', 'moderator', 'member'] as const;
export type ChatRoomRole = (typeof CHAT_ROOM_ROLES)[number];
export const CHAT_MEMBER_NOTIFY_LEVELS = ['all', 'mentions', 'mute'] as const;

@Entity({ name: 'chat_room_members' })
@Unique('uq_chat_room_members_room_user', ['roomId', 'userId'])
@Check('chk_chat_room_members_role', inList('role', CHAT_ROOM_ROLES))
@Check('chk_chat_room_members_notify_level', inList('notify_level', CHAT_MEMBER_NOTIFY_LEVELS))
export class ChatRoomMember {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  roomId: number;

  @ManyToOne(() => ChatRoom, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'room_id' })
  room?: ChatRoom;

  @Index('ix_chat_room_members_user_id')
  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 20, default: 'member' })
  role: ChatRoomRole;

  @CreateDateColumn({ type: 'timestamptz' })
  joinedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastReadAt: Date | null;

  // The last message the member has read (unread = later messages by others).
  @Column({ type: 'bigint', nullable: true })
  lastReadMessageId: string | null;

  // all | mentions | mute (mute lasts until notifyMutedUntil; null: until unmuted).
  @Column({ type: 'varchar', length: 10, default: 'all' })
  notifyLevel: string;

  @Column({ type: 'timestamptz', nullable: true })
  notifyMutedUntil: Date | null;

  // Moderator mute: cannot post until then.
  @Column({ type: 'timestamptz', nullable: true })
  mutedUntil: Date | null;

  // Ban: cannot read or post until then ('infinity' = permanent). A muted or banned member's row
  // stays when they leave, so the sanction holds.
  @Column({ type: 'timestamptz', nullable: true })
  bannedUntil: Date | null;

  @Column({ type: 'text', nullable: true })
  banReason: string | null;
}
