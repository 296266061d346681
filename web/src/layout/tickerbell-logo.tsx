interface TickerbellLogoProps {
  /** Width and height in CSS pixels: 48 in the header, 55 in the footer. */
  size: number;
  /** Give a title when the logo stands alone; without one it is decorative. */
  title?: string;
  className?: string;
}

/** A bell with a price-ticker line running across it. */
export function TickerbellLogo({ size, title, className }: TickerbellLogoProps) {
  const labelled = title !== undefined;
  return (
    <svg
      className={className ? `logo ${className}` : 'logo'}
      width={size}
      height={size}
      viewBox="0 0 48 48"
      role={labelled ? 'img' : undefined}
      aria-hidden={labelled ? undefined : true}
      focusable="false"
    >
      {labelled && <title>{title}</title>}
      <rect className="logo__tile" width="48" height="48" rx="12" />
      <path
        className="logo__bell"
        d="M24 7.5a2.5 2.5 0 0 0-2.5 2.5v1.1c-5.2 1.2-8.5 5.7-8.5 11.2v7.2l-3.2 4a1.5 1.5 0 0 0 1.2 2.5h26a1.5 1.5 0 0 0 1.2-2.5l-3.2-4v-7.2c0-5.5-3.3-10-8.5-11.2V10A2.5 2.5 0 0 0 24 7.5Z"
      />
      <path className="logo__clapper" d="M19.5 38h9a4.5 4.5 0 0 1-9 0Z" />
      <polyline
        className="logo__ticker"
        points="12,27 17.5,27 20.5,21 24.5,31 27.5,23.5 30.5,27 36,27"
        fill="none"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
