import { useEffect, useId, useRef, type ReactNode } from 'react';
import { uiLabels } from './labels.ts';

export interface ModalProps {
  open: boolean;
  /** Called on Escape, on the close button and on a click outside the box. */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons under the content. */
  actions?: ReactNode;
  /** Extra classes for the box, e.g. a width. */
  boxClassName?: string;
  /** Selector of the element to focus on open (default: the first field or button). */
  initialFocus?: string;
  /** Where the box sits: a bottom sheet on phones and centred on larger screens, or a side sheet. */
  placement?: 'center' | 'end';
}

/**
 * A daisyUI modal on the native <dialog>: `showModal()` makes the rest of the page inert (focus
 * stays inside), Escape closes it, and the browser gives focus back to the opener on close.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  actions,
  boxClassName = '',
  initialFocus,
  placement = 'center',
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      const target = initialFocus
        ? dialog.querySelector<HTMLElement>(initialFocus)
        : dialog.querySelector<HTMLElement>('input, select, textarea, [data-autofocus]');
      target?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, initialFocus]);

  return (
    <dialog
      ref={ref}
      className={`modal ${placement === 'end' ? 'modal-end' : 'modal-bottom sm:modal-middle'}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: React state decides, so the dialog never closes behind its owner's back.
        event.preventDefault();
        onClose();
      }}
    >
      {open ? (
        // Content exists only while open: a closed dialog leaves no fields behind for forms,
        // tests or assistive technology, and every opening starts fresh.
        <div className={`modal-box ${boxClassName}`}>
          <button
            type="button"
            className="btn btn-sm btn-circle btn-ghost absolute right-2 top-2"
            aria-label={uiLabels.close}
            onClick={onClose}
          >
            ✕
          </button>
          <h2 id={titleId} className="pr-8 text-lg font-bold">
            {title}
          </h2>
          <div className="py-3">{children}</div>
          {actions ? <div className="modal-action">{actions}</div> : null}
        </div>
      ) : null}
      <div className="modal-backdrop" onClick={onClose} aria-hidden="true" />
    </dialog>
  );
}
