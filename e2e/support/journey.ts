// Steps and waits shared by the browser journeys.
import fs from 'node:fs';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { ARTIFACTS_DIR } from './chromium';

/** Matches the answer of one api call (for page.waitForResponse). */
export const isApi = (pathname: string, method = 'GET') => (response: Response) =>
  new URL(response.url()).pathname === pathname && response.request().method() === method;

/** Polls `check` every 100 ms until it holds, or fails naming what it waited for. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Collects a page's console lines and uncaught errors; `save` writes them beside the screenshots. */
export function recordConsole(page: Page): { pageErrors: string[]; save(fileName: string): void } {
  const browserLog: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => browserLog.push(`[${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    pageErrors,
    save(fileName) {
      fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
      fs.writeFileSync(path.join(ARTIFACTS_DIR, fileName), [...browserLog, ...pageErrors.map((e) => `[pageerror] ${e}`)].join('\n') + '\n');
    },
  };
}

/** Fills and sends the sign-up form; answers the api's status (201 when the account was created). */
export async function submitSignUp(page: Page, account: { name: string; email: string; password: string }): Promise<number> {
  await page.goto('/sign-up');
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('Name').fill(account.name);
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  const created = page.waitForResponse(isApi('/api/auth/signup', 'POST'));
  await form.getByRole('button', { name: 'Create Account' }).click();
  return (await created).status();
}
