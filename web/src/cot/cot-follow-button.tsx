import { useEffect, useState } from 'react';
import { getCotFollowCodes, setCotFollow } from './cot-client';

type FollowState = { kind: 'loading' } | { kind: 'ready'; following: boolean; busy: boolean; error?: string };

/**
 * Follow an instrument to be told when its newest report brings a new extreme or a divergence
 * change (the COT alerts of docs/cot.md). Signed-in pages only.
 */
export function CotFollowButton({ code, name }: { code: string; name: string }) {
  const [state, setState] = useState<FollowState>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    getCotFollowCodes(controller.signal)
      .then((codes) => setState({ kind: 'ready', following: codes.includes(code), busy: false }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ kind: 'ready', following: false, busy: false, error: 'Could not load your follows.' });
      });
    return () => controller.abort();
  }, [code]);

  if (state.kind === 'loading') return null;
  const toggle = async (): Promise<void> => {
    const next = !state.following;
    setState({ kind: 'ready', following: state.following, busy: true });
    try {
      setState({ kind: 'ready', following: await setCotFollow(code, next), busy: false });
    } catch (error) {
      const message = error instanceof Error ? error.message : 'failed';
      setState({ kind: 'ready', following: state.following, busy: false, error: `Could not ${next ? 'follow' : 'unfollow'}: ${message}` });
    }
  };

  return (
    <div className="cot-follow">
      <button type="button" className="button button--secondary" aria-pressed={state.following} disabled={state.busy} onClick={() => void toggle()}>
        {state.following ? 'Following' : 'Follow'} <span className="visually-hidden">{name}</span>
      </button>
      <span className="form-field__hint">
        {state.following ? 'You are told when a new report brings an extreme or a divergence change.' : 'Get notified of new extremes and divergence changes.'}
      </span>
      {state.error && (
        <p className="form-message form-message--error" role="alert">
          {state.error}
        </p>
      )}
    </div>
  );
}
