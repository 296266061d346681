// A room's form, in two dialogs: "New room" (any signed-in user, within their plan's rooms; the
// creator owns the room) and the owner's "Room settings". Checked here first (name 3..60, description
// up to 280), then by the api, whose refusals appear next to their field (a taken name) or on top
// (a plan limit, with the way to upgrade). And the owner's "Delete room" confirmation.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ChatRoomView, ChatUpdateRoomInput } from '@tickerbell/jobs/chat/shapes';
import { ModalDialog } from '../alerts/modal-dialog';
import { fieldErrorsOf } from '../accounts/account-client';
import { messageOf } from '../accounts/auth-client';
import { LabelledControl } from '../layout/form-field';
import {
  ROOM_DESCRIPTION_MAX,
  ROOM_NAME_MAX,
  ROOM_NAME_MIN,
  createRoom,
  deleteRoom,
  planRefusalOf,
  slowModeChoices,
  updateRoom,
  type PlanRefusal,
} from './chat-client';
import { DialogButtons } from './chat-parts';
import '../alerts/alerts.css';

type RoomField = 'name' | 'description' | 'slowModeSeconds' | 'isPrivate';
type FieldErrors = Partial<Record<RoomField, string>>;
type Failure = { kind: 'plan'; refusal: PlanRefusal } | { kind: 'error'; message: string };

interface RoomForm {
  name: string;
  description: string;
  isPrivate: boolean;
  slowModeSeconds: number;
}

const FIELDS: readonly RoomField[] = ['name', 'description', 'slowModeSeconds', 'isPrivate'];

/** The form's own checks, as the api makes them. */
export function validateRoomForm(form: Pick<RoomForm, 'name' | 'description'>): FieldErrors {
  const errors: FieldErrors = {};
  const name = form.name.trim();
  if (name.length < ROOM_NAME_MIN || name.length > ROOM_NAME_MAX) errors.name = `A room’s name has ${ROOM_NAME_MIN} to ${ROOM_NAME_MAX} characters.`;
  if (form.description.trim().length > ROOM_DESCRIPTION_MAX) errors.description = `A description has at most ${ROOM_DESCRIPTION_MAX} characters.`;
  return errors;
}

function FailureMessage({ failure }: { failure: Failure | null }) {
  if (!failure) return null;
  return (
    <div className="form-message form-message--error" role="alert">
      {failure.kind === 'plan' ? (
        <>
          {failure.refusal.message} <Link to={failure.refusal.upgradeUrl}>{failure.refusal.upgradeLabel}</Link>
        </>
      ) : (
        failure.message
      )}
    </div>
  );
}

/**
 * The dialog both forms share: fields, submit and the api's refusals. `save` gets the checked form
 * and answers the room; a refusal naming a field is shown under it.
 */
function RoomDialog({
  title,
  initial,
  withPrivate,
  submitLabel,
  intro,
  privacyHint,
  save,
  onClose,
}: {
  title: string;
  initial: RoomForm;
  withPrivate: boolean;
  submitLabel: string;
  intro?: ReactNode;
  /** What choosing this privacy would do (shown under the checkbox), or null for nothing to say. */
  privacyHint?: (isPrivate: boolean) => string | null;
  save: (form: RoomForm) => Promise<void>;
  onClose: () => void;
}) {
  const titleId = useId();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const [focusInvalid, setFocusInvalid] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const update = (patch: Partial<RoomForm>) => setForm((current) => ({ ...current, ...patch }));

  useEffect(() => {
    if (focusInvalid > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusInvalid]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = validateRoomForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return setFocusInvalid((n) => n + 1);
    setBusy(true);
    save(form).catch((error: unknown) => {
      setBusy(false);
      const refusal = planRefusalOf(error);
      if (refusal) return setFailure({ kind: 'plan', refusal });
      const fields = fieldErrorsOf(error);
      const shown: FieldErrors = {};
      const other: string[] = [];
      for (const [field, message] of Object.entries(fields)) {
        if ((FIELDS as readonly string[]).includes(field) && (field !== 'isPrivate' || withPrivate)) shown[field as RoomField] = message;
        else other.push(message);
      }
      setErrors(shown);
      if (Object.keys(shown).length > 0) {
        setFocusInvalid((n) => n + 1);
        if (other.length > 0) setFailure({ kind: 'error', message: other.join(' ') });
      } else setFailure({ kind: 'error', message: messageOf(error) });
    });
  };

  const choices = slowModeChoices(form.slowModeSeconds);
  return (
    <ModalDialog titleId={titleId} onClose={onClose} initialFocus={nameRef} className="alert-dialog chat-dialog">
      <form ref={formRef} className="form" noValidate onSubmit={submit}>
        <div className="alert-dialog__header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        {intro}
        <FailureMessage failure={failure} />
        <LabelledControl label="Name" error={errors.name} hint={`${ROOM_NAME_MIN} to ${ROOM_NAME_MAX} characters, not the name of another room (whatever the letter case).`}>
          {(props) => (
            <input {...props} ref={nameRef} className="form-field__input" name="name" autoComplete="off" value={form.name} onChange={(event) => update({ name: event.target.value })} />
          )}
        </LabelledControl>
        <LabelledControl label="Description (optional)" error={errors.description} hint={`What the room is about, up to ${ROOM_DESCRIPTION_MAX} characters.`}>
          {(props) => (
            <textarea {...props} className="form-field__input" name="description" rows={3} value={form.description} onChange={(event) => update({ description: event.target.value })} />
          )}
        </LabelledControl>
        {withPrivate && (
          <div className="form-field">
            <label className="chat-check">
              <input type="checkbox" name="isPrivate" checked={form.isPrivate} aria-invalid={errors.isPrivate ? true : undefined} onChange={(event) => update({ isPrivate: event.target.checked })} /> Private: members join by invite
              link
            </label>
            {privacyHint?.(form.isPrivate) && <p className="form-field__hint">{privacyHint(form.isPrivate)}</p>}
            {errors.isPrivate && <p className="form-field__error">{errors.isPrivate}</p>}
          </div>
        )}
        <LabelledControl label="Slow mode" error={errors.slowModeSeconds} hint="How long each member waits between two messages.">
          {(props) => (
            <select {...props} className="form-field__input" name="slowModeSeconds" value={form.slowModeSeconds} onChange={(event) => update({ slowModeSeconds: Number(event.target.value) })}>
              {choices.map((choice) => (
                <option key={choice.seconds} value={choice.seconds}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </LabelledControl>
        <DialogButtons label={submitLabel} busyLabel="Saving…" busy={busy} onCancel={onClose} />
      </form>
    </ModalDialog>
  );
}

/** "New room": the created room is handed back (the caller lists and opens it). */
export function NewRoomDialog({ onCreated, onClose }: { onCreated: (room: ChatRoomView) => void; onClose: () => void }) {
  return (
    <RoomDialog
      title="New room"
      submitLabel="Create room"
      withPrivate
      initial={{ name: '', description: '', isPrivate: false, slowModeSeconds: 0 }}
      intro={<p className="form-field__hint">You own the rooms you create: you set them up, appoint moderators and, for a private room, make invite links.</p>}
      save={async (form) => {
        const description = form.description.trim();
        const room = await createRoom({ name: form.name.trim(), ...(description ? { description } : {}), isPrivate: form.isPrivate, slowModeSeconds: form.slowModeSeconds });
        onCreated(room);
      }}
      onClose={onClose}
    />
  );
}

/** The owner's "Room settings": only what changed is sent; nothing changed just closes. Privacy can change, saying what it does. */
export function RoomSettingsDialog({ room, onSaved, onClose }: { room: ChatRoomView; onSaved: (room: ChatRoomView) => void; onClose: () => void }) {
  return (
    <RoomDialog
      title="Room settings"
      submitLabel="Save"
      withPrivate
      initial={{ name: room.name, description: room.description ?? '', isPrivate: room.isPrivate, slowModeSeconds: room.slowModeSeconds }}
      intro={
        <p className="form-field__hint">
          {room.isPrivate ? 'A private room: members join by invite link.' : 'A public room: any signed-in user can read and join it.'}
        </p>
      }
      privacyHint={(isPrivate) =>
        isPrivate === room.isPrivate
          ? null
          : isPrivate
            ? 'Only its members will read it; others join by invite link.'
            : 'Anyone signed in will read and join it, and its invite links stop working.'
      }
      save={async (form) => {
        const patch: ChatUpdateRoomInput = {};
        const name = form.name.trim();
        const description = form.description.trim();
        if (name !== room.name) patch.name = name;
        if (description !== (room.description ?? '')) patch.description = description === '' ? null : description;
        if (form.slowModeSeconds !== room.slowModeSeconds) patch.slowModeSeconds = form.slowModeSeconds;
        if (form.isPrivate !== room.isPrivate) patch.isPrivate = form.isPrivate;
        if (Object.keys(patch).length === 0) return onClose();
        onSaved(await updateRoom(room.id, patch));
      }}
      onClose={onClose}
    />
  );
}

/** The owner's "Delete room": says what goes with it; Cancel has the focus, so Enter never deletes by surprise. */
export function DeleteRoomDialog({ room, onDeleted, onClose }: { room: ChatRoomView; onDeleted: () => void; onClose: () => void }) {
  const titleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const others = room.members - 1;
  const remove = () => {
    setBusy(true);
    setFailure(null);
    deleteRoom(room.id).then(onDeleted, (error: unknown) => {
      setBusy(false);
      setFailure(`The room was not deleted: ${messageOf(error)}`);
    });
  };
  return (
    <ModalDialog titleId={titleId} onClose={onClose} initialFocus={cancelRef} role="alertdialog" className="alert-dialog chat-dialog">
      <div className="alert-dialog__header">
        <h2 id={titleId}>Delete “{room.name}”?</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <p>
        Its messages, threads, reactions, reports, invite links and moderation log are deleted with it
        {others > 0 ? `, and its ${others.toLocaleString('en-US')} other ${others === 1 ? 'member loses' : 'members lose'} it` : ''}. This cannot be undone.
      </p>
      {failure && (
        <p className="form-message form-message--error" role="alert">
          {failure}
        </p>
      )}
      <DialogButtons label="Delete room" busyLabel="Deleting…" busy={busy} danger onConfirm={remove} onCancel={onClose} cancelRef={cancelRef} />
    </ModalDialog>
  );
}
