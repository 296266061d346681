// Steps and waits shared by the browser journeys.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page, Response } from 'playwright-core';
import { linkIn } from '../../api/test/support/smtp-capture';
import { ARTIFACTS_DIR } from './chromium';
import type { E2eStack } from './e2e-stack';

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

/**
 * Waits for the toast that contains `text` and holds it open: a pointer on a toast pauses its 4 s
 * auto-close (react-toastify's pauseOnHover), so the checks that follow never race the timer on a busy
 * machine. Start it before the action that raises the toast and await it after that action's own checks:
 * the toast is caught the moment it shows, however long those checks take.
 */
export function heldToast(page: Page, text: string, timeout?: number): Promise<Locator> {
  return holdToast(page.locator('.Toastify__toast').filter({ hasText: text }), timeout);
}

/**
 * `heldToast` for a toast already located (the locator must match one toast). react-toastify starts a
 * toast's timer when its entrance animation ends, so the hold waits for that, then puts the pointer on it
 * and checks where the hold shows: the progress bar stops. The pointer's entry is dispatched (a
 * `mouseover` from outside the page, which React turns into the toast's onMouseEnter) rather than moved
 * there with `hover()`, whose wait for the toast to stand still timed out on a loaded CI machine.
 */
export async function holdToast(toast: Locator, timeout = 30_000): Promise<Locator> {
  await toast.waitFor({ state: 'attached', timeout });
  const playState = () => toast.locator('.Toastify__progress-bar').evaluate((bar) => bar.style.animationPlayState);
  await waitUntil('the toast to finish its entrance', async () => (await entered(toast)) && (await playState()) === 'running', timeout);
  await toast.dispatchEvent('mouseover');
  await waitUntil('the toast to hold', async () => (await playState()) === 'paused');
  return toast;
}

/** True once a toast has no animation of its own left (its slide-in is over). */
function entered(toast: Locator): Promise<boolean> {
  return toast.evaluate((element) => element.getAnimations().length === 0);
}

/**
 * Closes a held toast by its close button and waits until it is gone. The click is dispatched to the
 * button (its onClick is what a trader's click runs), for the reason `holdToast` dispatches the pointer.
 */
export async function dismissToast(toast: Locator): Promise<void> {
  await toast.getByRole('button', { name: /close/i }).dispatchEvent('click');
  await toast.waitFor({ state: 'detached' });
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

/** Signs in with the email form of the page it is on (or /sign-in) and waits for the dashboard. */
export async function submitSignIn(page: Page, account: { email: string; password: string }): Promise<void> {
  if (new URL(page.url(), 'http://x').pathname !== '/sign-in') await page.goto('/sign-in');
  const form = page.getByRole('form', { name: 'Sign in with email' });
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
}

/** Opens the verification link of the account's confirmation mail and waits for the sign-in page to say it worked. */
export async function verifyFromMail(page: Page, stack: Pick<E2eStack, 'smtp' | 'url'>, email: string): Promise<void> {
  const mail = await stack.smtp.waitFor(email, /Confirm your email/, 20_000);
  await page.goto(linkIn(mail, stack.url('/api/auth/verify-email')).toString());
  await page.waitForURL((url) => url.pathname === '/sign-in' && url.searchParams.get('verified') === '1');
}
