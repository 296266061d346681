// Moderation in a room: reporting a message (everyone), and for the room's owner and moderators
// the mute/ban dialog (minutes, the rule broken, a reason), the reports queue and the audit log
// (which also shows a member's earlier sanctions, so repeated mutes escalate by hand, and lifts a
// mute or ban still in force).
import { useId, useRef, useState, type FormEvent } from 'react';
import type { ChatAuditEntry, ChatMessageView, ChatRule } from '@tickerbell/jobs/chat/shapes';
import { ModalDialog } from '../alerts/modal-dialog';
import { messageOf } from '../accounts/auth-client';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import { ACTION_LABELS, REASON_MAX, RULES, RULE_LABELS, formatFull, formatUntil, getAudit, getReports, moderate, reportMessage } from './chat-client';
import { LabelledControl } from '../layout/form-field';
import { DialogButtons } from './chat-parts';
import '../alerts/alerts.css';

export const MUTE_CHOICES = [
  { minutes: 10, label: '10 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 24 * 60, label: '1 day' },
  { minutes: 7 * 24 * 60, label: '7 days' },
] as const;
export const BAN_CHOICES = [
  { minutes: 24 * 60, label: '1 day' },
  { minutes: 7 * 24 * 60, label: '7 days' },
  { minutes: 30 * 24 * 60, label: '30 days' },
  { minutes: 0, label: 'Permanently' },
] as const;

/** Mute or ban a message's author, citing a rule. */
export function SanctionDialog({ roomId, message, action, onDone, onClose }: { roomId: number; message: ChatMessageView; action: 'mute' | 'ban'; onDone: (summary: string) => void; onClose: () => void }) {
  const titleId = useId();
  const choices = action === 'mute' ? MUTE_CHOICES : BAN_CHOICES;
  const [minutes, setMinutes] = useState<number>(choices[1].minutes);
  const [rule, setRule] = useState<ChatRule>('spam');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const name = message.author?.name ?? 'this member';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    moderate(roomId, { action, userId: message.author!.id, messageId: message.id, rule, ...(reason.trim() ? { reason: reason.trim() } : {}), ...(minutes > 0 ? { minutes } : {}) })
      .then(() => onDone(`${action === 'mute' ? 'Muted' : 'Banned'} ${name} (${RULE_LABELS[rule]}).`))
      .catch((failure: unknown) => setError(messageOf(failure)))
      .finally(() => setSaving(false));
  };
  return (
    <ModalDialog titleId={titleId} onClose={onClose} className="alert-dialog chat-dialog">
      <form className="form" onSubmit={submit}>
        <h2 id={titleId}>
          {action === 'mute' ? 'Mute' : 'Ban'} {name}
        </h2>
        <p className="form-field__hint">
          {action === 'mute'
            ? 'A muted member can read the room but not post until the time ends; they are told until when. The rule you cite is kept in the audit log.'
            : 'A banned member can neither read nor post in the room. The rule you cite is shown to them and kept in the audit log.'}
        </p>
        <LabelledControl label="For">
          {(props) => (
            <select {...props} value={minutes} onChange={(event) => setMinutes(Number(event.target.value))}>
              {choices.map((choice) => (
                <option key={choice.label} value={choice.minutes}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </LabelledControl>
        <LabelledControl label="Rule broken">
          {(props) => (
            <select {...props} value={rule} onChange={(event) => setRule(event.target.value as ChatRule)}>
              {RULES.map((value) => (
                <option key={value} value={value}>
                  {RULE_LABELS[value]}
                </option>
              ))}
            </select>
          )}
        </LabelledControl>
        <LabelledControl label="Reason (optional)">
          {(props) => <textarea {...props} rows={2} maxLength={REASON_MAX} value={reason} onChange={(event) => setReason(event.target.value)} />}
        </LabelledControl>
        {error && (
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
        )}
        <DialogButtons label={action === 'mute' ? 'Mute' : 'Ban'} busy={saving} danger onCancel={onClose} />
      </form>
    </ModalDialog>
  );
}

/** Report a message to the room's moderators. */
export function ReportDialog({ message, onDone, onClose }: { message: ChatMessageView; onDone: () => void; onClose: () => void }) {
  const titleId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const focus = useRef<HTMLTextAreaElement>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') return setError('Say what is wrong with the message.');
    setSaving(true);
    reportMessage(message.id, reason.trim())
      .then(onDone)
      .catch((failure: unknown) => setError(messageOf(failure)))
      .finally(() => setSaving(false));
  };
  return (
    <ModalDialog titleId={titleId} onClose={onClose} className="alert-dialog chat-dialog" initialFocus={focus}>
      <form className="form" onSubmit={submit}>
        <h2 id={titleId}>Report {message.author?.name ?? 'a'}’s message</h2>
        <blockquote className="chat-quote">{message.text}</blockquote>
        <LabelledControl label="What is wrong with it?">
          {(props) => <textarea {...props} ref={focus} rows={3} maxLength={REASON_MAX} value={reason} onChange={(event) => setReason(event.target.value)} />}
        </LabelledControl>
        {error && (
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
        )}
        <DialogButtons label="Send report" busy={saving} onCancel={onClose} />
      </form>
    </ModalDialog>
  );
}

function ReportsQueue({ roomId, onChanged }: { roomId: number; onChanged?: () => void }) {
  const [status, setStatus] = useState<'open' | 'resolved' | 'dismissed'>('open');
  const [result, update, retry] = useRequest(`reports:${roomId}:${status}`, (signal) => getReports(roomId, status, signal));
  const [error, setError] = useState<string | null>(null);
  // The report whose message is about to be deleted: the moderator names the rule it breaks first.
  const [deleting, setDeleting] = useState<{ reportId: number; rule: ChatRule } | null>(null);
  const reports = shownData(result);
  const act = (reportId: number, input: Parameters<typeof moderate>[1]) => {
    setError(null);
    moderate(roomId, input)
      .then(() => {
        setDeleting(null);
        update((current) => current.filter((report) => report.id !== reportId));
        onChanged?.();
      })
      .catch((failure: unknown) => setError(messageOf(failure)));
  };
  return (
    <section aria-label="Reports">
      <div className="chat-tabs" role="group" aria-label="Report status">
        {(['open', 'resolved', 'dismissed'] as const).map((value) => (
          <button key={value} type="button" className="chat-tabs__tab" aria-pressed={status === value} onClick={() => setStatus(value)}>
            {value[0]!.toUpperCase() + value.slice(1)}
          </button>
        ))}
      </div>
      {error && (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      )}
      {result.state === 'failed' ? (
        <RequestFailed what="The reports" message={result.message} onRetry={retry} />
      ) : reports === null ? (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the reports…
        </p>
      ) : reports.length === 0 ? (
        <p className="empty-state">No {status} reports.</p>
      ) : (
        <ul className="chat-mod-list">
          {reports.map((report) => (
            <li key={report.id} className="chat-mod-item">
              <p>
                <strong>{report.reporter.name}</strong> reported <strong>{report.message.author?.name ?? 'a message'}</strong> ·{' '}
                <time dateTime={report.createdAt} className="chat-muted">
                  {formatFull(report.createdAt)}
                </time>
              </p>
              <blockquote className="chat-quote">{report.message.deleted ? (report.message.deletedBy === 'moderator' ? 'Removed by a moderator' : 'Deleted by its author') : report.message.text}</blockquote>
              <p className="chat-muted">Reason: {report.reason}</p>
              {status === 'open' && deleting?.reportId === report.id && (
                <div className="chat-mod-item__confirm" role="group" aria-label="Delete the reported message">
                  <label className="form-field__label" htmlFor={`chat-report-rule-${report.id}`}>
                    Rule it breaks (recorded in the audit log)
                  </label>
                  <select
                    id={`chat-report-rule-${report.id}`}
                    className="form-field__input"
                    value={deleting.rule}
                    onChange={(event) => setDeleting({ reportId: report.id, rule: event.target.value as ChatRule })}
                  >
                    {RULES.map((value) => (
                      <option key={value} value={value}>
                        {RULE_LABELS[value]}
                      </option>
                    ))}
                  </select>
                  <div className="chat-mod-item__buttons">
                    <button
                      type="button"
                      className="button button--danger button--small"
                      onClick={() => act(report.id, { action: 'delete_message', messageId: report.message.id, reportId: report.id, rule: deleting.rule })}
                    >
                      Delete for {RULE_LABELS[deleting.rule].toLowerCase()}
                    </button>
                    <button type="button" className="button button--secondary button--small" onClick={() => setDeleting(null)}>
                      Cancel
                    </button>
                  </div>
                </div>
              )}
              {status === 'open' && deleting?.reportId !== report.id && (
                <div className="chat-mod-item__buttons">
                  {!report.message.deleted && (
                    <button type="button" className="button button--danger button--small" onClick={() => setDeleting({ reportId: report.id, rule: 'spam' })}>
                      Delete message…
                    </button>
                  )}
                  <button type="button" className="button button--secondary button--small" onClick={() => act(report.id, { action: 'dismiss_report', reportId: report.id })}>
                    Dismiss
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What an entry did to whom: "Muted Grace", "Deleted a message by Grace", "Dismissed a report about Grace". */
function auditSummary(entry: ChatAuditEntry): string {
  const label = ACTION_LABELS[entry.action];
  if (!entry.target) return label;
  if (entry.action === 'delete_message') return `${label} by ${entry.target.name}`;
  if (entry.action === 'dismiss_report') return `${label} about ${entry.target.name}`;
  return `${label} ${entry.target.name}`;
}

/**
 * The mutes and bans still in force among the entries (newest first): a member's newest mute (ban)
 * entry that no unmute (unban) followed and whose end has not come. Those can be lifted here.
 */
function sanctionsInForce(entries: readonly ChatAuditEntry[], now = Date.now()): Set<number> {
  const seen = new Set<string>();
  const inForce = new Set<number>();
  for (const entry of entries) {
    if (!entry.target) continue;
    const kind = entry.action === 'mute' || entry.action === 'unmute' ? 'mute' : entry.action === 'ban' || entry.action === 'unban' ? 'ban' : null;
    if (!kind || seen.has(`${kind}:${entry.target.id}`)) continue;
    seen.add(`${kind}:${entry.target.id}`);
    if (entry.action === kind && (entry.until === 'infinity' || (entry.until !== null && Date.parse(entry.until) > now))) inForce.add(entry.id);
  }
  return inForce;
}

function AuditLog({ roomId }: { roomId: number }) {
  const [result, , retry] = useRequest(`audit:${roomId}`, (signal) => getAudit(roomId, signal));
  const [error, setError] = useState<string | null>(null);
  const [lifting, setLifting] = useState<number | null>(null);
  const audit = shownData(result);
  if (result.state === 'failed') return <RequestFailed what="The audit log" message={result.message} onRetry={retry} />;
  if (audit === null)
    return (
      <p role="status" className="page-loading">
        <span className="spinner" aria-hidden="true" /> Loading the audit log…
      </p>
    );
  if (audit.entries.length === 0) return <p className="empty-state">No moderation action in this room yet.</p>;
  const inForce = sanctionsInForce(audit.entries);
  const lift = (entry: ChatAuditEntry) => {
    setLifting(entry.id);
    setError(null);
    moderate(roomId, { action: entry.action === 'mute' ? 'unmute' : 'unban', userId: entry.target!.id })
      .then(retry)
      .catch((failure: unknown) => setError(messageOf(failure)))
      .finally(() => setLifting(null));
  };
  return (
    <>
      {error && (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      )}
      <ol className="chat-mod-list" aria-label="Audit log">
        {audit.entries.map((entry) => (
          <li key={entry.id} className="chat-mod-item">
            <p>
              <strong>{entry.moderator.name}</strong> · {auditSummary(entry)}
              {entry.until && (entry.action === 'mute' || entry.action === 'ban') && <> {formatUntil(entry.until)}</>}
            </p>
            <p className="chat-muted">
              {entry.rule && <>{RULE_LABELS[entry.rule]} · </>}
              {entry.reason && <>{entry.reason} · </>}
              <time dateTime={entry.createdAt}>{formatFull(entry.createdAt)}</time>
            </p>
            {inForce.has(entry.id) && (
              <div className="chat-mod-item__buttons">
                <button type="button" className="button button--secondary button--small" disabled={lifting !== null || result.state === 'loading'} onClick={() => lift(entry)}>
                  {entry.action === 'mute' ? 'Unmute' : 'Unban'} {entry.target!.name}
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

/** The moderators' side panel: the reports queue and the audit log. */
/** A room's moderation: its reports and audit log. `onReportsChanged`: a report was acted on (the room's open count is read again). */
export function ModerationPanel({ roomId, onClose, onReportsChanged }: { roomId: number; onClose: () => void; onReportsChanged?: () => void }) {
  const headingId = useId();
  const [tab, setTab] = useState<'reports' | 'audit'>('reports');
  return (
    <aside className="chat-side" aria-labelledby={headingId}>
      <div className="chat-side__head">
        <h3 id={headingId}>Moderation</h3>
        <button type="button" className="button button--ghost button--small" onClick={onClose} aria-label="Close moderation">
          Close
        </button>
      </div>
      <div className="chat-tabs" role="group" aria-label="Moderation views">
        <button type="button" className="chat-tabs__tab" aria-pressed={tab === 'reports'} onClick={() => setTab('reports')}>
          Reports
        </button>
        <button type="button" className="chat-tabs__tab" aria-pressed={tab === 'audit'} onClick={() => setTab('audit')}>
          Audit log
        </button>
      </div>
      {tab === 'reports' ? <ReportsQueue roomId={roomId} onChanged={onReportsChanged} /> : <AuditLog roomId={roomId} />}
    </aside>
  );
}
