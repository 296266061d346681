import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { User } from './user.entity';

@Entity({ name: 'user_preferences' })
@Unique('uq_user_preferences_user_id', ['userId'])
export class UserPreferences {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'boolean', default: true })
  marketOpenNotifications: boolean;

  @Column({ type: 'boolean', default: true })
  marketCloseNotifications: boolean;

  @Column({ type: 'boolean', default: true })
  marketOpeningSoonNotifications: boolean;

  @Column({ type: 'boolean', default: true })
  marketClosingSoonNotifications: boolean;

  @Column({ type: 'boolean', default: true })
  soundNotifications: boolean;

  @Column({ type: 'boolean', default: false })
  emailNotifications: boolean;

  @Column({ type: 'boolean', default: true })
  pushNotifications: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
