// The COT pages exist twice: inside the signed-in dashboard and as public read-only research pages.
export type CotVariant = 'dashboard' | 'public';

export interface CotPaths {
  screener: string;
  instrument: (code: string) => string;
}

export function cotPaths(variant: CotVariant): CotPaths {
  const base = variant === 'dashboard' ? '/dashboard/cot' : '/research/cot';
  return {
    screener: variant === 'dashboard' ? base : `${base}/screener`,
    instrument: (code) => `${base}/${encodeURIComponent(code)}`,
  };
}
