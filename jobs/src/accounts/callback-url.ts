/**
 * The absolute URL to send a user to after signing in or out, or null when `value` leaves the
 * site. Relative paths resolve against the public origin; absolute URLs must have that origin.
 * `//evil.example`, `/\evil.example` and `javascript:` all resolve to another origin and are refused.
 */
export function sameOriginUrl(value: string, publicUrl: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, publicUrl);
  } catch {
    return null;
  }
  return url.origin === new URL(publicUrl).origin ? url.toString() : null;
}
