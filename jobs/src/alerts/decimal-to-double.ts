// 10^0 .. 10^22: every one is exactly representable as a double.
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/**
 * `Number(decimal)`, bit for bit, for the index's hot paths. Plain decimals of at most 15 digits
 * ("60740.25") take the classic exact fast path: the digits form an integer below 2^53 (exact), 10^k
 * is exact, and one IEEE division of two exact doubles is correctly rounded, as `Number` is. That
 * is about three times cheaper than V8's general parser; anything else (more digits, signs,
 * exponents, spaces, empty) goes to `Number`.
 */
export function decimalToDouble(s: string): number {
  const n = s.length;
  if (n === 0 || n > 16) return Number(s);
  let mantissa = 0;
  let digits = 0;
  let fractionDigits = -1;
  for (let i = 0; i < n; i++) {
    const code = s.charCodeAt(i);
    if (code === 46 /* . */) {
      if (fractionDigits >= 0) return Number(s);
      fractionDigits = n - i - 1;
      continue;
    }
    const digit = code - 48;
    if (digit < 0 || digit > 9) return Number(s);
    mantissa = mantissa * 10 + digit;
    digits++;
  }
  if (digits === 0 || digits > 15) return Number(s);
  return fractionDigits > 0 ? mantissa / POWERS_OF_TEN[fractionDigits] : mantissa;
}
