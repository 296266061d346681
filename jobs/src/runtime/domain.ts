import type { z } from 'zod';
import type { DataSource } from 'typeorm';
import type { ScheduleDefinition } from '../schedules';
import type { Clock } from './clock';
import type { JobHandler } from './job-handler';
import type { JobQueues } from './job-queues';
import type { Logger } from './logger';

/** What a domain's `start` gets besides its configuration: the process's shared pieces. */
export interface DomainStartDeps {
  dataSource: DataSource;
  queues: JobQueues;
  clock: Clock;
  logger: Logger;
}

/** A started domain: its job handlers, with their dependencies built, and how to release them. */
export interface DomainRuntime {
  handlers: JobHandler[];
  /** Closes what `start` opened (sockets, caches, subscriptions); called once at shutdown. */
  close?(): Promise<void>;
}

/**
 * One feature's part of the job system, as the workers and the api assemble it: its name (the
 * same in every package), its environment variables (validated by every process at start, so a
 * bad one is found before the first job), its cluster-wide schedules, and `start`, which builds
 * the domain's dependencies once (sources, caches, senders) and hands them to its handlers.
 */
export interface Domain<C = unknown, N extends string = string> {
  name: N;
  env?: z.ZodType<C>;
  schedules?: ScheduleDefinition[];
  start(config: C, deps: DomainStartDeps): DomainRuntime;
}

export function defineDomain<const N extends string, C = Record<string, never>>(domain: Domain<C, N>): Domain<C, N> {
  return domain;
}
