import {
  ExactDecimal,
  compareDecimal,
  movedAmount,
  movedPercent,
  windowExtremes,
  type PriceCondition,
  type IndicatorCondition,
  type PriceTick,
} from './alert-conditions';
import { ema, macd, rsi, sma } from './technical-indicators';

/** The notification title of a firing, as the spec words it. */
export function alertTitle(name: string): string {
  return `${name} Alert Triggered`;
}

/**
 * A decimal string for people: thousands separators, trailing zeros dropped, and prices with at
 * least two decimals ("60012.5" -> "60,012.50"; "0.00001234" keeps every digit; "60000" -> "60,000").
 */
export function formatDecimal(value: string, minDecimals = 0): string {
  const fixed = new ExactDecimal(value).toFixed();
  const negative = fixed.startsWith('-');
  const [whole, fraction = ''] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const decimals = fraction.replace(/0+$/, '').padEnd(minDecimals, '0');
  return `${negative ? '-' : ''}${grouped}${decimals ? `.${decimals}` : ''}`;
}

const price = (value: string) => formatDecimal(value, 2);
const minutes = (n: number) => (n === 1 ? '1 minute' : `${n} minutes`);

/** "BTCUSDT crossed above 60,000 (now 60,012.50)": what a price condition's firing says. */
export function priceAlertMessage(symbol: string, condition: PriceCondition, tick: PriceTick): string {
  const now = `(now ${price(tick.current)})`;
  switch (condition.type) {
    case 'crossing_up':
      return `${symbol} crossed above ${formatDecimal(condition.value)} ${now}`;
    case 'crossing_down':
      return `${symbol} crossed below ${formatDecimal(condition.value)} ${now}`;
    case 'crossing': {
      const up = tick.previous !== null && compareDecimal(tick.previous, condition.value) < 0;
      return `${symbol} crossed ${up ? 'above' : 'below'} ${formatDecimal(condition.value)} ${now}`;
    }
    case 'greater_than':
      return `${symbol} is above ${formatDecimal(condition.value)} ${now}`;
    case 'less_than':
      return `${symbol} is below ${formatDecimal(condition.value)} ${now}`;
    case 'entering_channel':
    case 'exiting_channel':
    case 'inside_channel':
    case 'outside_channel': {
      const verb = { entering_channel: 'entered', exiting_channel: 'left', inside_channel: 'is inside', outside_channel: 'is outside' }[condition.type];
      return `${symbol} ${verb} the ${formatDecimal(condition.low)} - ${formatDecimal(condition.high)} channel ${now}`;
    }
    case 'moving_up':
    case 'moving_down': {
      const up = condition.type === 'moving_up';
      const moved = movedAmount(tick, condition.minutes, up ? 'up' : 'down').toFixed();
      const { min, max } = windowExtremes(tick, condition.minutes);
      return `${symbol} ${up ? 'rose' : 'fell'} ${price(moved)} within ${minutes(condition.minutes)} (from ${price(up ? min : max)}, now ${price(tick.current)})`;
    }
    case 'moving_up_percent':
    case 'moving_down_percent': {
      const up = condition.type === 'moving_up_percent';
      const moved = movedPercent(tick, condition.minutes, up ? 'up' : 'down').toDecimalPlaces(2, ExactDecimal.ROUND_DOWN).toFixed(2);
      return `${symbol} ${up ? 'rose' : 'fell'} ${moved}% within ${minutes(condition.minutes)} ${now}`;
    }
  }
}

const maName = (kind: 'sma' | 'ema', period: number) => `${kind.toUpperCase()}(${period})`;

/** "above"/"below": the side a crossing ended on (the last difference's sign). */
function side(a: number | null | undefined, b: number | null | undefined): string {
  return a !== null && a !== undefined && b !== null && b !== undefined && a >= b ? 'above' : 'below';
}

/** What a technical condition's firing says, on the closes (oldest first) it was met on. */
export function technicalAlertMessage(symbol: string, interval: string, condition: IndicatorCondition, closes: readonly string[]): string {
  const values = closes.map(Number);
  const close = closes[closes.length - 1];
  const on = `on the ${interval} chart`;
  switch (condition.type) {
    case 'rsi_above':
    case 'rsi_below': {
      const last = rsi(values, condition.period).at(-1);
      const shown = last === null || last === undefined ? '' : `RSI ${last.toFixed(1)}, `;
      return `${symbol} RSI(${condition.period}) is ${condition.type === 'rsi_above' ? 'above' : 'below'} ${condition.level} ${on} (${shown}close ${price(close)})`;
    }
    case 'price_crossing_ma': {
      const ma = (condition.ma === 'ema' ? ema : sma)(values, condition.period);
      return `${symbol} crossed ${side(values.at(-1), ma.at(-1))} its ${maName(condition.ma, condition.period)} ${on} (close ${price(close)})`;
    }
    case 'ma_crossover': {
      const average = condition.ma === 'ema' ? ema : sma;
      const fast = average(values, condition.fast).at(-1);
      const slow = average(values, condition.slow).at(-1);
      return `${symbol} ${maName(condition.ma, condition.fast)} crossed ${side(fast, slow)} ${maName(condition.ma, condition.slow)} ${on} (close ${price(close)})`;
    }
    case 'macd_signal_cross': {
      const m = macd(values, condition.fast, condition.slow, condition.signal);
      return `${symbol} MACD crossed ${side(m.line.at(-1), m.signal.at(-1))} its signal line ${on} (close ${price(close)})`;
    }
  }
}
