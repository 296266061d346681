import { z } from 'zod';
import { parseEnvs } from './config/env';
import { alertsDomain } from './alerts/alerts.domain';
import { cotDomain } from './cot/cot.domain';
import { housekeepingDomain } from './housekeeping/housekeeping.domain';
import { mailDomain } from './mail/mail.domain';
import { marketHoursDomain } from './market-hours/market-hours.domain';
import { createNewsDomain } from './news/news.domain';
import { insidersDomain } from './insiders/insiders.domain';
import { whalesDomain } from './whales/whales.domain';
import { predictionsDomain } from './predictions/predictions.domain';
import { yieldsDomain } from './yields/yields.domain';
import { lockupsDomain } from './lockups/lockups.domain';
import { chatDomain } from './chat/chat.domain';
import { billingDomain } from './billing/billing.domain';
import { ETH_PRICE_SYMBOL } from './whales/whales-pricing';
import { notificationsDomain } from './notifications/notifications.domain';
import { createPricesDomain } from './prices/prices.domain';
import { alertsBarDemand } from './alerts/alert-bar-demand';
import { alertsNewsConsumer } from './alerts/alert-news';
import type { Domain, DomainStartDeps } from './runtime/domain';
import type { JobHandler } from './runtime/job-handler';
import type { ScheduleDefinition } from './schedules';

const emptySchema = z.object({});

// Prices' and news' consumers are wired here, so that neither imports them.
// The whales value ETH transfers from ETHUSDT's 1-minute bars, followed by anyone or not.
const pricesDomain = createPricesDomain({ barDemand: [alertsBarDemand], alwaysPolled: [ETH_PRICE_SYMBOL] });
// Likewise news: its polls tell the news alerts of new links, without news importing alerts.
const newsDomain = createNewsDomain({ linked: [alertsNewsConsumer] });

/**
 * Every domain the workers run. The schedules, the handlers, each process's configuration schema
 * and the shutdown list are assembled from this list: a new domain is one line here (and its jobs
 * in registry.ts, its queue in queues.ts).
 */
export const DOMAINS = [housekeepingDomain, mailDomain, notificationsDomain, marketHoursDomain, pricesDomain, alertsDomain, cotDomain, newsDomain, insidersDomain, whalesDomain, predictionsDomain, yieldsDomain, lockupsDomain, chatDomain, billingDomain] as const;

type AnyDomain = (typeof DOMAINS)[number];
type ConfigOf<D> = D extends Domain<infer C, string> ? C : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Each domain's parsed configuration, by domain name. */
export type DomainConfigs = { [D in AnyDomain as D['name']]: ConfigOf<D> };
/** Every domain's variables in one object (what a process's own config is merged with). */
export type DomainsEnv = UnionToIntersection<ConfigOf<AnyDomain>>;

/** Cluster-wide periodic work: every domain's schedules (registered by each worker process at start). */
export const SCHEDULES: ScheduleDefinition[] = DOMAINS.flatMap((domain): ScheduleDefinition[] => domain.schedules ?? []);

/**
 * A process's configuration: its own schema and every domain's, parsed together at start. Throws
 * one ConfigError naming every bad variable of all of them (the process's main prints it and exits 1).
 */
export function loadProcessConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
  processName: string,
): { config: z.infer<S> & DomainsEnv; domains: DomainConfigs } {
  const withEnv = DOMAINS.filter((domain) => domain.env);
  const [own, ...parsed] = parseEnvs([schema, ...withEnv.map((domain) => domain.env as z.ZodType)], env, processName);
  const domains = Object.fromEntries(DOMAINS.map((domain) => [domain.name, {}])) as Record<string, unknown>;
  withEnv.forEach((domain, i) => (domains[domain.name] = parsed[i]));
  const config = Object.assign({}, ...parsed, own) as z.infer<S> & DomainsEnv;
  return { config, domains: domains as DomainConfigs };
}

/** Every domain's configuration from its defaults alone (tests and tools that run domains without a .env). */
export function defaultDomainConfigs(): DomainConfigs {
  return loadProcessConfig(emptySchema, {}, 'defaults').domains;
}

export interface StartedDomains {
  handlers: JobHandler[];
  /** Closes every domain's resources, last started first; a failing close does not stop the others. */
  close(): Promise<void>;
}

/** Builds each domain's dependencies once, from its configuration, and collects the handlers. */
export function startDomains(configs: DomainConfigs, deps: DomainStartDeps): StartedDomains {
  const started = DOMAINS.map((domain) => (domain as Domain<unknown>).start(configs[domain.name], deps));
  return {
    handlers: started.flatMap((runtime) => runtime.handlers),
    async close() {
      for (const runtime of [...started].reverse()) {
        try {
          await runtime.close?.();
        } catch (error) {
          deps.logger.warn({ err: (error as Error).message }, 'a domain failed to close');
        }
      }
    },
  };
}
