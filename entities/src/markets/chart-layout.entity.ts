import {
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

@Entity({ name: 'chart_layouts' })
// At most one default layout per user.
@Index('uq_chart_layouts_default_per_user', ['userId'], { unique: true, where: '"is_default"' })
export class ChartLayout {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_chart_layouts_user_id')
  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  // The chart library's saved state, stored as the client sends it.
  @Column({ type: 'jsonb' })
  layout: Record<string, unknown>;

  @Column({ type: 'boolean', default: false })
  isDefault: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
