// Reading an api answer at the boundary: each reader checks one value's type and throws a
// TypeError naming where it is (`rows[3].usdValue: expected a decimal string`), so a client's
// parse function says exactly what did not fit.
import { isRecord } from './client';

export function fail(where: string, expected: string): never {
  throw new TypeError(`${where}: expected ${expected}`);
}

export function record(value: unknown, where: string): Record<string, unknown> {
  if (!isRecord(value)) fail(where, 'an object');
  return value;
}

export function text(value: unknown, where: string): string {
  if (typeof value !== 'string') fail(where, 'text');
  return value;
}

export function textOrNull(value: unknown, where: string): string | null {
  if (value === null || value === undefined) return null;
  return text(value, where);
}

/** A decimal string (as PostgreSQL numeric answers), kept as text. */
export function decimal(value: unknown, where: string): string {
  if (typeof value !== 'string' || !/^-?\d+(\.\d+)?$/.test(value)) fail(where, 'a decimal string');
  return value;
}

export function decimalOrNull(value: unknown, where: string): string | null {
  return value === null || value === undefined ? null : decimal(value, where);
}

export function count(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(where, 'an integer');
  return value;
}

export function countOrNull(value: unknown, where: string): number | null {
  return value === null || value === undefined ? null : count(value, where);
}

/** A finite JSON number. */
export function num(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(where, 'a number');
  return value;
}

export function numOrNull(value: unknown, where: string): number | null {
  return value === null || value === undefined ? null : num(value, where);
}

/** Names the keys of one object for the readers: `const k = at('pool'); num(s.tvl, k('tvl'))` says "pool.tvl". */
export const at = (where: string) => (key: string) => `${where}.${key}`;

export function bool(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') fail(where, 'a boolean');
  return value;
}

export function boolOrNull(value: unknown, where: string): boolean | null {
  return value === null || value === undefined ? null : bool(value, where);
}

export function list<T>(value: unknown, where: string, item: (entry: unknown, at: string) => T): T[] {
  if (!Array.isArray(value)) fail(where, 'a list');
  return value.map((entry: unknown, index) => item(entry, `${where}[${index}]`));
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string): T {
  if (!(allowed as readonly unknown[]).includes(value)) fail(where, allowed.join(', '));
  return value as T;
}
