// The chart's indicators: the ones drawn (each removable) and a form to add another.
import { useState, type FormEvent } from 'react';
import { CHART_INDICATOR_PERIOD, CHART_INDICATOR_TYPES, type ChartIndicatorType } from '@tickerbell/jobs/chart-layouts/shapes';
import { DEFAULT_PERIODS, INDICATOR_LABELS, type IndicatorConfig } from './chart-layouts-client';

/** Volume and MACD have no period, so only one of each makes sense. */
const SINGLE: ReadonlySet<ChartIndicatorType> = new Set(['volume', 'macd']);

export function indicatorName(indicator: IndicatorConfig): string {
  return indicator.period === undefined ? INDICATOR_LABELS[indicator.type] : `${indicator.type.toUpperCase()} ${indicator.period}`;
}

/** Same type and period: adding it again would draw the same line twice. */
function sameIndicator(a: IndicatorConfig, b: IndicatorConfig): boolean {
  return a.type === b.type && (SINGLE.has(a.type) || a.period === b.period);
}

export function IndicatorsPanel({ indicators, onChange }: { indicators: readonly IndicatorConfig[]; onChange: (indicators: IndicatorConfig[]) => void }) {
  const [type, setType] = useState<ChartIndicatorType>('sma');
  const [period, setPeriod] = useState(String(DEFAULT_PERIODS.sma));
  const takesPeriod = DEFAULT_PERIODS[type] !== undefined;
  const periodValue = Number(period);
  const periodValid = !takesPeriod || (Number.isInteger(periodValue) && periodValue >= CHART_INDICATOR_PERIOD.min && periodValue <= CHART_INDICATOR_PERIOD.max);
  const candidate: IndicatorConfig = takesPeriod ? { type, period: periodValue } : { type };
  const duplicate = periodValid && indicators.some((indicator) => sameIndicator(indicator, candidate));

  const onAdd = (event: FormEvent): void => {
    event.preventDefault();
    if (!periodValid || duplicate) return;
    onChange([...indicators, candidate]);
  };

  return (
    <section className="dashboard-panel" aria-labelledby="indicators-title">
      <h2 id="indicators-title">Indicators</h2>
      {indicators.length === 0 ? (
        <p className="empty-state">Candles only.</p>
      ) : (
        <ul className="chip-list" aria-label="Indicators on the chart">
          {indicators.map((indicator, index) => (
            <li key={`${indicator.type}-${indicator.period ?? ''}-${index}`} className="chip">
              <span>{indicatorName(indicator)}</span>
              <button
                type="button"
                className="chip__remove"
                aria-label={`Remove ${indicatorName(indicator)}`}
                onClick={() => onChange(indicators.filter((_, other) => other !== index))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="form indicators-form" aria-label="Add an indicator" onSubmit={onAdd}>
        <label className="form-field">
          <span className="form-field__label">Indicator</span>
          <select
            className="form-field__input"
            value={type}
            onChange={(event) => {
              const next = event.target.value as ChartIndicatorType;
              setType(next);
              const fallback = DEFAULT_PERIODS[next];
              if (fallback !== undefined) setPeriod(String(fallback));
            }}
          >
            {CHART_INDICATOR_TYPES.map((value) => (
              <option key={value} value={value}>
                {INDICATOR_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        {takesPeriod && (
          <label className="form-field">
            <span className="form-field__label">Period</span>
            <input
              className="form-field__input"
              type="number"
              inputMode="numeric"
              min={CHART_INDICATOR_PERIOD.min}
              max={CHART_INDICATOR_PERIOD.max}
              step={1}
              value={period}
              aria-invalid={!periodValid}
              onChange={(event) => setPeriod(event.target.value)}
            />
            {!periodValid && <span className="form-field__error">A whole number from {CHART_INDICATOR_PERIOD.min} to {CHART_INDICATOR_PERIOD.max}.</span>}
          </label>
        )}
        {duplicate && <p className="form-field__hint">{indicatorName(candidate)} is already on the chart.</p>}
        <button type="submit" className="button button--secondary" disabled={!periodValid || duplicate}>
          Add indicator
        </button>
      </form>
    </section>
  );
}
