import { logoutUnsentChanges, messages } from '@skyport/shared';
import { Modal } from '../../../ui/modal.tsx';

/**
 * Logout with changes this device could not send: how many would be lost, and the choice.
 * "Stay signed in" is the default (focused first, and what Escape or the close button mean):
 * nothing is lost unless the user says so.
 */
export function LogoutChoiceDialog({
  unsent,
  onStay,
  onLogOut,
}: {
  unsent: number;
  onStay: () => void;
  onLogOut: () => void;
}) {
  return (
    <Modal
      open
      onClose={onStay}
      title={messages.logoutUnsentTitle}
      initialFocus="[data-autofocus]"
      actions={
        <>
          <button
            type="button"
            className="btn btn-error btn-outline"
            data-testid="logout-anyway"
            onClick={onLogOut}
          >
            {messages.logoutAnyway}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            data-autofocus
            data-testid="logout-stay"
            onClick={onStay}
          >
            {messages.logoutStaySignedIn}
          </button>
        </>
      }
    >
      <p data-testid="logout-unsent">{logoutUnsentChanges(unsent)}</p>
    </Modal>
  );
}
