import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import { recordSourceHealth } from '../sources/source-health';
import type { NewsFetch, NewsSource } from './feeds.client';
import { buildNewsIndex, matchNewsItem, type NewsMatch } from './news-matching';
import { markNewsLinksAnnounced, marketsForNewsMatching, saveNewsMatches, trimNewsHistory, unannouncedNewsLinks, upsertNewsItems } from './news.store';

export interface NewsPollDeps {
  dataSource: DataSource;
  clock: Clock;
}

export interface NewsPollOutcome {
  source: string;
  fetched: number;
  /** Malformed items left out. */
  skipped: number;
  /** Items not stored before this poll. */
  added: number;
  /** Market links written for the added items. */
  matches: number;
  /** Items deleted beyond the history bound. */
  trimmed: number;
}

/** A new item linked to a market by a poll (what the news consumers, such as news alerts, hear of). */
export interface NewsLink {
  newsItemId: number;
  marketId: number;
}

/** The links a poll wrote, with the poll's instant (the items' fetched_at). */
export interface NewsLinked {
  at: Date;
  links: NewsLink[];
}

/** Fetches a source and records the outcome (success with the newest item's date, or the error) in source_health. */
async function fetchTracked(deps: NewsPollDeps, source: NewsSource): Promise<NewsFetch> {
  let fetched: NewsFetch;
  try {
    fetched = await source.fetch();
  } catch (error) {
    await recordSourceHealth(deps, source.name, { ok: false, error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  const newest = fetched.items.reduce<Date | null>((max, item) => (item.publishedAt && (!max || item.publishedAt > max) ? item.publishedAt : max), null);
  await recordSourceHealth(deps, source.name, {
    ok: true,
    dataAt: newest,
    details: { kind: source.kind, url: fetched.url, items: fetched.items.length, skipped: fetched.skipped },
  });
  return fetched;
}

/**
 * One poll of one source: fetch (recorded on source health), store new items and refresh known
 * ones (one row per source and GUID/link), link each new item to the markets it is about, then
 * trim the source to its newest `keep` items. Safe to run twice: the second run adds nothing.
 */
export async function pollNewsSource(
  deps: NewsPollDeps,
  source: NewsSource,
  options: { keep: number },
): Promise<NewsPollOutcome & { linked: NewsLinked }> {
  const fetched = await fetchTracked(deps, source);
  const now = deps.clock.now();
  return deps.dataSource.transaction(async (manager) => {
    const added = await upsertNewsItems(manager, source.name, fetched.items, now);
    let matches = 0;
    const linked: NewsLinked = { at: now, links: [] };
    if (added.length) {
      // One index per poll: every new item is looked up in it, never scanned against each market.
      const index = buildNewsIndex(await marketsForNewsMatching(manager));
      const links: { newsItemId: number; match: NewsMatch }[] = [];
      for (const item of added) for (const match of matchNewsItem(index, item)) links.push({ newsItemId: item.id, match });
      matches = await saveNewsMatches(manager, links);
      // The items were new, so every link is too.
      linked.links = links.map((l) => ({ newsItemId: l.newsItemId, marketId: l.match.marketId }));
    }
    const trimmed = await trimNewsHistory(manager, source.name, options.keep);
    return { source: source.name, fetched: fetched.items.length, skipped: fetched.skipped, added: added.length, matches, trimmed, linked };
  });
}

/**
 * Tells `tell` (the consumers) of every link of the source not announced yet, one call per poll
 * instant, and marks each group once told. The links are written unannounced by the poll's
 * transaction, so a consumer that throws (a failed enqueue) leaves them for the poll's retry or the
 * next poll: a new item's link is told at least once, and the consumers' jobs are idempotent.
 */
export async function announceNewsLinks(deps: NewsPollDeps, source: string, tell: (linked: NewsLinked) => Promise<void>): Promise<number> {
  const rows = await unannouncedNewsLinks(deps.dataSource, source);
  const groups = new Map<number, NewsLinked>();
  for (const row of rows) {
    const at = new Date(row.fetchedAt);
    const group = groups.get(at.getTime()) ?? { at, links: [] };
    group.links.push({ newsItemId: row.newsItemId, marketId: row.marketId });
    groups.set(at.getTime(), group);
  }
  for (const group of groups.values()) {
    await tell(group);
    await markNewsLinksAnnounced(deps.dataSource, group.links, deps.clock.now());
  }
  return rows.length;
}
