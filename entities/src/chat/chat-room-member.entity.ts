import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from '../accounts/user.entity';
import { inList } from '../sql';
import { ChatRoom } from './chat-room.entity';

export const CHAT_ROOM_ROLES = ['owner', 'moderator', 'member'] as const;
export type ChatRoomRole = (typeof CHAT_ROOM_ROLES)[number];

@Entity({ name: 'chat_room_members' })
@Unique('uq_chat_room_members_room_user', ['roomId', 'userId'])
@Check('chk_chat_room_members_role', inList('role', CHAT_ROOM_ROLES))
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
}
