// Checks every screen must pass (issue 21): no horizontal scroll of the page, no console error, no
// failed request, and WCAG AA text contrast (axe-core's color-contrast rule).
import fs from 'node:fs';
import type { Page, Request } from 'playwright-core';
import { waitUntil } from './journey';

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Long-lived connections: never "finished", so they do not count as the page still loading. */
const STREAMING = new Set(['eventsource', 'websocket']);

/**
 * Records what goes wrong on a page, screen by screen: console errors, uncaught errors, requests
 * that failed or were answered with an error status. `expect(path)` starts a new screen; what
 * the previous document reports while it is being left (its streams aborted) is not counted.
 */
export class PageProblems {
  private current: string[] | null = null;
  private readonly inFlight = new Set<Request>();

  constructor(private readonly page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.add(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.add(`uncaught: ${error.message}`));
    page.on('request', (request) => {
      if (!STREAMING.has(request.resourceType())) this.inFlight.add(request);
    });
    page.on('requestfinished', (request) => this.inFlight.delete(request));
    page.on('requestfailed', (request) => {
      this.inFlight.delete(request);
      this.add(`request failed: ${request.method()} ${new URL(request.url()).pathname} (${request.failure()?.errorText ?? 'no reason'})`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) this.add(`HTTP ${response.status()}: ${response.request().method()} ${new URL(response.url()).pathname}`);
    });
  }

  /** Stops recording while the page navigates away. */
  pause(): void {
    this.current = null;
    this.inFlight.clear();
  }

  /** Starts recording the problems of the document now shown. */
  start(): void {
    this.current = [];
  }

  /** The problems recorded since `start`. */
  take(): string[] {
    return this.current ?? [];
  }

  /** Waits until no request (streams aside) has been open for 300 ms. */
  async waitForQuiet(timeoutMs = 20_000): Promise<void> {
    let quietSince = Date.now();
    await waitUntil(
      `the requests of ${this.page.url()} to finish`,
      async () => {
        if (this.inFlight.size > 0) quietSince = Date.now();
        return Date.now() - quietSince >= 300;
      },
      timeoutMs,
    );
  }

  private add(problem: string): void {
    this.current?.push(problem);
  }
}

/** True once no loading indicator is shown (a suspended lazy page, a fetch in progress). */
const SETTLED = `(() => {
  const busy = [...document.querySelectorAll('[aria-busy="true"], .page-loading, .spinner')];
  return busy.every((element) => !element.checkVisibility());
})()`;

/** Opens a path and waits for the page to settle: loaded, lazy chunks and data fetched, nothing busy. */
export async function openScreen(page: Page, problems: PageProblems, pathname: string): Promise<void> {
  problems.pause();
  await page.goto(pathname, { waitUntil: 'commit' });
  problems.start();
  await page.waitForLoadState('load');
  await problems.waitForQuiet();
  await waitUntil(`${pathname} to stop loading`, () => page.evaluate<boolean>(SETTLED));
  await problems.waitForQuiet();
  await page.evaluate('document.fonts.ready.then(() => undefined)');
}

export interface Overflow {
  scrollWidth: number;
  clientWidth: number;
  /** The elements reaching furthest past the right edge (tag.class and right edge in px). */
  widest: string[];
}

/** The page's width against the viewport's, and the innermost elements reaching furthest past it. */
const OVERFLOW = `(() => {
  const root = document.documentElement;
  if (root.scrollWidth <= root.clientWidth) return null;
  const describe = (element) =>
    element.tagName.toLowerCase() + (typeof element.className === 'string' && element.className.trim() ? '.' + element.className.trim().split(/\\s+/).join('.') : '');
  const past = [...document.body.querySelectorAll('*')]
    .map((element) => ({ element, right: Math.round(element.getBoundingClientRect().right + window.scrollX) }))
    .filter(({ right }) => right > root.clientWidth);
  const innermost = past.filter(({ element }) => !past.some((other) => other.element !== element && element.contains(other.element)));
  return {
    scrollWidth: root.scrollWidth,
    clientWidth: root.clientWidth,
    widest: innermost.sort((a, b) => b.right - a.right).slice(0, 5).map(({ element, right }) => describe(element) + ' to ' + right + ' px'),
  };
})()`;

/** Null when the page does not scroll sideways; otherwise how wide it is and what pushes it. */
export function horizontalOverflow(page: Page): Promise<Overflow | null> {
  return page.evaluate<Overflow | null>(OVERFLOW);
}

interface AxeNode {
  target: string[];
  any: { message: string }[];
}

/**
 * WCAG AA text contrast (axe-core's color-contrast rule) inside the elements `selector` matches;
 * each violation as "selector: axe's message".
 */
export async function contrastViolations(page: Page, selector: string): Promise<string[]> {
  // Evaluated rather than added as a <script>: the content security policy allows 'self' scripts only.
  if (!(await page.evaluate<boolean>("'axe' in window"))) await page.evaluate(AXE_SOURCE);
  const nodes = await page.evaluate<AxeNode[]>(`(async () => {
    // axe keeps colours it read in an earlier run of this document: a theme switch must not reuse them.
    window.axe.teardown();
    const result = await window.axe.run(
      { include: [...document.querySelectorAll(${JSON.stringify(selector)})] },
      { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations'] },
    );
    return result.violations.flatMap((violation) => violation.nodes);
  })()`);
  return nodes.map((node) => `${node.target.join(' ')}: ${node.any.map((check) => check.message).join('; ')}`);
}
