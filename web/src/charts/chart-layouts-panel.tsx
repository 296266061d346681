// Saved layouts: save the chart as it is now (optionally as the default), load one, overwrite one
// with the current chart, make one the default (it opens by itself next time) or delete one.
import { useState, type FormEvent } from 'react';
import { messageOf } from '../accounts/auth-client';
import {
  createChartLayout,
  deleteChartLayout,
  setDefaultChartLayout,
  summaryOf,
  updateChartLayout,
  type ChartLayoutData,
  type ChartLayoutSummary,
} from './chart-layouts-client';
import { indicatorName } from './indicators-panel';

interface ChartLayoutsPanelProps {
  layouts: readonly ChartLayoutSummary[];
  loadError: string | null;
  current: ChartLayoutData;
  activeLayoutId: number | null;
  onLayoutsChange: (change: (layouts: ChartLayoutSummary[]) => ChartLayoutSummary[]) => void;
  /** Opens a saved layout (the page fetches its body). */
  onLoad: (layout: ChartLayoutSummary) => Promise<void>;
  onSaved: (id: number) => void;
}

type Feedback = { kind: 'error' | 'success'; text: string } | null;

/** Only `id` may be the default: the database allows one per user. */
function withDefault(layouts: ChartLayoutSummary[], id: number | null): ChartLayoutSummary[] {
  return layouts.map((layout) => ({ ...layout, isDefault: layout.id === id }));
}

function describe(layout: ChartLayoutData): string {
  const indicators = layout.indicators.map(indicatorName).join(', ');
  return `${layout.symbol} · ${layout.interval}${indicators ? ` · ${indicators}` : ''}`;
}

function describeSummary(layout: ChartLayoutSummary): string {
  return [layout.symbol, layout.interval].filter((part) => part !== null).join(' · ');
}

export function ChartLayoutsPanel({ layouts, loadError, current, activeLayoutId, onLayoutsChange, onLoad, onSaved }: ChartLayoutsPanelProps) {
  const [name, setName] = useState('');
  const [makeDefault, setMakeDefault] = useState(false);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);

  const run = async (what: string, action: () => Promise<string>): Promise<void> => {
    setBusy(true);
    try {
      setFeedback({ kind: 'success', text: await action() });
    } catch (error) {
      setFeedback({ kind: 'error', text: `${what}: ${messageOf(error)}` });
    } finally {
      setBusy(false);
    }
  };

  const onSave = (event: FormEvent): void => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') return;
    void run('Could not save the layout', async () => {
      const saved = await createChartLayout({ name: trimmed, layout: current, isDefault: makeDefault });
      onLayoutsChange((list) => {
        const next = [...list, summaryOf(saved)];
        return saved.isDefault ? withDefault(next, saved.id) : next;
      });
      onSaved(saved.id);
      setName('');
      setMakeDefault(false);
      return `Saved “${saved.name}”${saved.isDefault ? ' as your default layout' : ''}.`;
    });
  };

  const onOverwrite = (layout: ChartLayoutSummary): void =>
    void run(`Could not update “${layout.name}”`, async () => {
      const saved = await updateChartLayout(layout.id, { layout: current });
      onLayoutsChange((list) => list.map((other) => (other.id === saved.id ? summaryOf(saved) : other)));
      onSaved(saved.id);
      return `Updated “${saved.name}” with the chart as it is now.`;
    });

  const onOpen = (layout: ChartLayoutSummary): void =>
    void run(`Could not open “${layout.name}”`, async () => {
      await onLoad(layout);
      return `Opened “${layout.name}”.`;
    });

  const onMakeDefault = (layout: ChartLayoutSummary): void =>
    void run(`Could not make “${layout.name}” the default`, async () => {
      await setDefaultChartLayout(layout.id);
      onLayoutsChange((list) => withDefault(list, layout.id));
      return `“${layout.name}” now opens by default.`;
    });

  const onDelete = (layout: ChartLayoutSummary): void =>
    void run(`Could not delete “${layout.name}”`, async () => {
      await deleteChartLayout(layout.id);
      onLayoutsChange((list) => list.filter((other) => other.id !== layout.id));
      setConfirmDelete(null);
      return `Deleted “${layout.name}”.`;
    });

  return (
    <section className="dashboard-panel" aria-labelledby="layouts-title">
      <h2 id="layouts-title">Layouts</h2>
      {loadError && (
        <p className="form-message form-message--error" role="alert">
          Your saved layouts could not be loaded: {loadError}
        </p>
      )}
      {feedback && (
        <p className={`form-message form-message--${feedback.kind}`} role={feedback.kind === 'error' ? 'alert' : 'status'}>
          {feedback.text}
        </p>
      )}
      {layouts.length === 0 ? (
        <p className="empty-state">No saved layouts. Save the chart as it is now to open it again later.</p>
      ) : (
        <ul className="layout-list" aria-label="Saved layouts">
          {layouts.map((layout) => (
            <li key={layout.id} className={layout.id === activeLayoutId ? 'layout-list__item layout-list__item--active' : 'layout-list__item'}>
              <div className="layout-list__title">
                <strong>{layout.name}</strong>
                {layout.isDefault && <span className="default-badge">Default</span>}
              </div>
              <span className="data-table__sub">{describeSummary(layout)}</span>
              <div className="toolbar layout-list__actions">
                <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => onOpen(layout)} aria-label={`Load ${layout.name}`}>
                  Load
                </button>
                <button type="button" className="button button--ghost button--small" disabled={busy} onClick={() => onOverwrite(layout)} aria-label={`Save the chart into ${layout.name}`}>
                  Update
                </button>
                {!layout.isDefault && (
                  <button type="button" className="button button--ghost button--small" disabled={busy} onClick={() => onMakeDefault(layout)} aria-label={`Make ${layout.name} the default`}>
                    Set default
                  </button>
                )}
                {confirmDelete === layout.id ? (
                  <>
                    <button type="button" className="button button--danger button--small" disabled={busy} onClick={() => onDelete(layout)} aria-label={`Confirm deleting ${layout.name}`}>
                      Delete for good
                    </button>
                    <button type="button" className="button button--ghost button--small" onClick={() => setConfirmDelete(null)}>
                      Keep
                    </button>
                  </>
                ) : (
                  <button type="button" className="button button--ghost button--small" disabled={busy} onClick={() => setConfirmDelete(layout.id)} aria-label={`Delete ${layout.name}`}>
                    Delete…
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <form className="form" aria-label="Save layout" onSubmit={onSave}>
        <div className="form-field">
          <label className="form-field__label" htmlFor="layout-name">
            Layout name
          </label>
          <input id="layout-name" className="form-field__input" value={name} maxLength={100} aria-describedby="layout-name-hint" onChange={(event) => setName(event.target.value)} />
          <span id="layout-name-hint" className="form-field__hint">
            Saves {describe(current)}.
          </span>
        </div>
        <label className="switch">
          <input type="checkbox" checked={makeDefault} onChange={(event) => setMakeDefault(event.target.checked)} /> Open this layout by default
        </label>
        <button type="submit" className="button button--primary" disabled={busy || name.trim() === ''}>
          Save layout
        </button>
      </form>
    </section>
  );
}
