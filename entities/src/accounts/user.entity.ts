import {
  Check,
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { inList } from '../sql';

export const USER_ROLES = ['member', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

@Entity({ name: 'users' })
@Unique('uq_users_google_id', ['googleId'])
@Unique('uq_users_verification_token', ['verificationToken'])
@Unique('uq_users_reset_token', ['resetToken'])
@Check('chk_users_role', inList('role', USER_ROLES))
export class User {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 100, nullable: true })
  name: string | null;

  // Unique case-insensitively among live users only (lower(email) WHERE deleted_at IS NULL), so a
  // soft-deleted account frees its address. TypeORM cannot express that index: the migration creates it.
  @Index('uq_users_email_active', { synchronize: false })
  @Column({ type: 'varchar', length: 255 })
  email: string;

  // Null for accounts that only sign in through a provider.
  @Column({ type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  googleId: string | null;

  // Avatar URL (from the sign-in provider, or set by the user).
  @Column({ type: 'varchar', length: 2048, nullable: true })
  image: string | null;

  // A requested new address: it replaces `email` only once its verification link is opened.
  @Column({ type: 'varchar', length: 255, nullable: true })
  pendingEmail: string | null;

  @Column({ type: 'varchar', length: 20, default: 'member' })
  role: UserRole;

  @Column({ type: 'boolean', default: false })
  isVerified: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  verificationToken: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  verificationTokenExpiry: Date | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  resetToken: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  resetTokenExpiry: Date | null;

  // Stripe subscription statuses (active, trialing, past_due, incomplete_expired ...) or 'inactive'.
  @Column({ type: 'varchar', length: 30, default: 'inactive' })
  subscriptionStatus: string;

  @Column({ type: 'varchar', length: 50, nullable: true })
  subscriptionPlan: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  subscriptionId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  subscriptionStartDate: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  subscriptionEndDate: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  trialEndDate: Date | null;

  @Column({ type: 'boolean', default: false })
  pwaInstalled: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  pwaInstallDate: Date | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  pwaInstallSource: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  @DeleteDateColumn({ type: 'timestamptz' })
  deletedAt: Date | null;
}
