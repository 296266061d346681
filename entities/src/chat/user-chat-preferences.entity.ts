import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { User } from '../accounts/user.entity';

@Entity({ name: 'user_chat_preferences' })
@Unique('uq_user_chat_preferences_user_id', ['userId'])
export class UserChatPreferences {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'boolean', default: true })
  soundNotifications: boolean;

  @Column({ type: 'boolean', default: true })
  desktopNotifications: boolean;

  @Column({ type: 'boolean', default: true })
  showOnlineStatus: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
