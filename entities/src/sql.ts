/** SQL for a CHECK that a column holds one of a closed set of string values. */
export function inList(column: string, values: readonly string[]): string {
  return `"${column}" IN (${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')})`;
}

/** SQL for a CHECK that a varchar(5) column holds a 24-hour 'HH:MM' time (null allowed). */
export function isHourMinute(column: string): string {
  return `"${column}" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`;
}
