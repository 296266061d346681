/** Times in the viewer's locale and zone, like the notification list. */
export function formatAlertTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** An alert whose expiry has come (the instant itself included) never fires again. */
export function isExpired(expiresAt: string | null, now: Date): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= now.getTime();
}

/** A coming check: the time alone when it falls on the viewer's today, else with its date. */
export function formatCheckTime(at: Date, now: Date): string {
  const sameDay = at.toDateString() === now.toDateString();
  return sameDay ? at.toLocaleTimeString(undefined, { timeStyle: 'short' }) : at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
