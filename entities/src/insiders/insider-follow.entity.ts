import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { InsiderTradingCompany } from './insider-trading-company.entity';

/** A user following a company's insider trades, with what notifies them. */
@Entity({ name: 'insider_follows' })
export class InsiderFollow {
  @PrimaryColumn({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  // The alert fan-out reads the followers of one company.
  @Index('ix_insider_follows_company_id')
  @PrimaryColumn({ type: 'integer' })
  companyId: number;

  @ManyToOne(() => InsiderTradingCompany, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id' })
  company?: InsiderTradingCompany;

  // Notify when 3 or more distinct insiders bought on the open market within 30 days.
  @Column({ type: 'boolean', default: true })
  notifyClusterBuy: boolean;

  // Notify on an officer's or director's open-market purchase worth at least this (USD); null: off.
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true, default: 25000 })
  officerBuyMinValue: string | null;

  // Notify when the company's analytics flag unusual activity.
  @Column({ type: 'boolean', default: true })
  notifyUnusualActivity: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
