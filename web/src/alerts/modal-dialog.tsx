// A modal dialog: focus moves in on open, Tab cycles inside, Esc closes, and focus returns to
// what had it before. (jsdom has no HTMLDialogElement.showModal, so the trap is our own.)
import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => !element.closest('[hidden]'));
}

interface ModalDialogProps {
  titleId: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  role?: 'dialog' | 'alertdialog';
  /** Gets focus on open; else the first focusable element. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Gets focus back on close (the button that opened it: Safari does not focus clicked buttons). */
  returnFocus?: RefObject<HTMLElement | null>;
}

export function ModalDialog({ titleId, onClose, children, className, role = 'dialog', initialFocus, returnFocus }: ModalDialogProps) {
  const ref = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const root = ref.current;
    if (root) (initialFocus?.current ?? focusables(root)[0] ?? root).focus();
    return () => {
      const opener = returnFocus?.current;
      (opener?.isConnected ? opener : previous)?.focus();
    };
    // Focus moves in once, when the dialog opens.
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const items = focusables(ref.current);
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="alert-modal">
      <div className="alert-modal__backdrop" aria-hidden="true" />
      <div ref={ref} role={role} aria-modal="true" aria-labelledby={titleId} tabIndex={-1} className={`alert-modal__panel ${className ?? ''}`} onKeyDown={onKeyDown}>
        {children}
      </div>
    </div>
  );
}
