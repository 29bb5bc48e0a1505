/**
 * Toasts: a short line saying what just happened ("Moved to the Trash"), with Undo when the change can
 * be taken back. Shared by every feature through `useToast()`; `ToastProvider` (app/providers.tsx)
 * renders the stack.
 *
 * - Stacked, newest at the bottom, at most MAX_TOASTS (the oldest goes first).
 * - Announced to screen readers: the region is a polite live region (role=status) that is always in
 *   the page, so a toast added to it is read out; Undo and Dismiss are real buttons.
 * - Hides by itself after HIDE_AFTER_MS, but not while the pointer is on it or focus is in it (someone
 *   reaching for Undo must not see it vanish).
 * - On phones it sits above the tab bar (toast.css).
 * - Undo runs once; if it fails, a toast says so.
 * - A modal dialog (the viewer) makes the rest of the page inert and covers it, so while one is open
 *   the stack is drawn inside it: the dialog renders `<ToastHost />`, which lends its element.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { messageOf } from '../api/problem';
import { Icon } from './Icon';
import './toast.css';

export const HIDE_AFTER_MS = 6000;
const MAX_TOASTS = 3;

export interface ToastOptions {
  message: string;
  /** Takes the change back; the toast offers "Undo" when given. */
  undo?: () => Promise<unknown> | void;
  /** Said after a successful undo (default "Undone."). */
  undone?: string;
  tone?: 'info' | 'error';
}

interface ToastEntry extends ToastOptions {
  id: number;
}

interface ToastApi {
  show(toast: ToastOptions): void;
  /** Where the stack is drawn instead of the page (a modal dialog's element), or null. */
  setHost?(host: HTMLElement | null): void;
}

const ToastContext = createContext<ToastApi | null>(null);

/** Shows toasts; outside a provider (a test rendering one component) toasts are dropped. */
export function useToast(): ToastApi {
  return useContext(ToastContext) ?? NO_TOASTS;
}
const NO_TOASTS: ToastApi = { show: () => undefined };

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastEntry[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback((toast: ToastOptions) => {
    const id = nextId.current++;
    setToasts((list) => [...list, { ...toast, id }].slice(-MAX_TOASTS));
  }, []);
  const [host, setHost] = useState<HTMLElement | null>(null);
  const api = useMemo(() => ({ show, setHost }), [show]);

  const region = (
    <section className="toasts" aria-label="Notifications">
      <div role="status" aria-live="polite" className="toasts__list">
        {toasts.map((t) => (
          <Toast key={t.id} toast={t} onDismiss={() => dismiss(t.id)} onUndone={(message) => show({ message })} />
        ))}
      </div>
    </section>
  );
  return (
    <ToastContext.Provider value={api}>
      {children}
      {host ? createPortal(region, host) : region}
    </ToastContext.Provider>
  );
}

/** Rendered inside a modal dialog: toasts show there (above the dialog, not inert) while it is open. */
export function ToastHost() {
  const { setHost } = useToast();
  const ref = useCallback((el: HTMLDivElement | null) => setHost?.(el), [setHost]);
  return <div ref={ref} className="toasts__host" />;
}

function Toast({ toast, onDismiss, onUndone }: { toast: ToastEntry; onDismiss: () => void; onUndone: (message: string) => void }) {
  const [held, setHeld] = useState(false);
  const [undoing, setUndoing] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    if (held || undoing) return;
    const timer = setTimeout(onDismiss, HIDE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [held, undoing, onDismiss, failed]);

  const undo = async () => {
    if (!toast.undo || undoing) return;
    setUndoing(true);
    try {
      await toast.undo();
      onDismiss();
      onUndone(toast.undone ?? 'Undone.');
    } catch (e) {
      setUndoing(false);
      setFailed(`Could not undo: ${messageOf(e)}`);
    }
  };

  return (
    <div
      className={toast.tone === 'error' || failed ? 'toast toast--error' : 'toast'}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setHeld(false);
      }}
    >
      <p className="toast__message">{failed ?? toast.message}</p>
      {toast.undo && !failed && (
        <button type="button" className="toast__undo" onClick={() => void undo()} disabled={undoing} aria-busy={undoing || undefined}>
          {undoing ? 'Undoing…' : 'Undo'}
        </button>
      )}
      <button type="button" className="toast__dismiss" aria-label="Dismiss" title="Dismiss" onClick={onDismiss}>
        <Icon name="close" />
      </button>
    </div>
  );
}
