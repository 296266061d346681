import type { SocialNetwork } from './site-links';

/** Small monochrome marks for the footer's social links; they take the link's colour. */
export function SocialIcon({ network }: { network: SocialNetwork }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {network === 'x' && (
        <path
          fill="currentColor"
          d="M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.3L5.3 21H2.2l7.2-8.3L1.8 3h6.4l4.4 5.8L17.8 3Zm-1.1 16.2h1.7L7.2 4.7H5.4l11.3 14.5Z"
        />
      )}
      {network === 'linkedin' && (
        <>
          <rect x="2.5" y="2.5" width="19" height="19" rx="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
          <circle cx="8" cy="8" r="1.5" fill="currentColor" />
          <rect x="6.6" y="10.5" width="2.8" height="7" fill="currentColor" />
          <path
            fill="currentColor"
            d="M11.5 10.5h2.7v1.1c.5-.8 1.4-1.3 2.5-1.3 2 0 3 1.3 3 3.6v3.6h-2.8v-3.3c0-1-.4-1.6-1.3-1.6-.9 0-1.4.6-1.4 1.6v3.3h-2.7v-7Z"
          />
        </>
      )}
      {network === 'github' && (
        <path
          fill="currentColor"
          d="M12 2a10 10 0 0 0-3.2 19.5c.5.1.7-.2.7-.5v-1.7c-2.8.6-3.4-1.3-3.4-1.3-.4-1.1-1.1-1.4-1.1-1.4-.9-.6.1-.6.1-.6 1 .1 1.5 1 1.5 1 .9 1.5 2.3 1.1 2.9.8.1-.6.3-1.1.6-1.3-2.2-.3-4.6-1.1-4.6-5 0-1.1.4-2 1-2.7-.1-.3-.4-1.3.1-2.7 0 0 .8-.3 2.7 1a9.4 9.4 0 0 1 5 0c1.9-1.3 2.7-1 2.7-1 .5 1.4.2 2.4.1 2.7.6.7 1 1.6 1 2.7 0 3.9-2.3 4.7-4.6 4.9.4.3.7.9.7 1.9V21c0 .3.2.6.7.5A10 10 0 0 0 12 2Z"
        />
      )}
    </svg>
  );
}
