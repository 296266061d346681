import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from '../accounts/user.entity';
import { ChatRoom } from './chat-room.entity';

/**
 * An invite link to a private room, made by its owner or a moderator. Only the SHA-256 of the
 * code is stored (hex): the code itself is shown once, to its maker. Valid until `expires_at`,
 * while not revoked and, with `max_uses`, while `uses` is below it.
 */
@Entity({ name: 'chat_room_invites' })
@Unique('uq_chat_room_invites_code_hash', ['codeHash'])
@Index('ix_chat_room_invites_room_id_id', ['roomId', 'id'])
@Check('chk_chat_room_invites_max_uses', '"max_uses" IS NULL OR "max_uses" > 0')
export class ChatRoomInvite {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  roomId: number;

  @ManyToOne(() => ChatRoom, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'room_id' })
  room?: ChatRoom;

  // sha256(code) in hex.
  @Column({ type: 'char', length: 64 })
  codeHash: string;

  // Who made it (the invite outlives their account: it is the room's).
  @Column({ type: 'integer', nullable: true })
  createdBy: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by' })
  creator?: User | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  // null: any number of uses until it expires.
  @Column({ type: 'integer', nullable: true })
  maxUses: number | null;

  @Column({ type: 'integer', default: 0 })
  uses: number;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
