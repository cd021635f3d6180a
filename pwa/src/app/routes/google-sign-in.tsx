/**
 * "Continue with Google" through the optional Firebase identity adapter. The button appears only
 * when the PWA is built with the adapter's web config (VITE_FIREBASE_API_KEY and
 * VITE_FIREBASE_AUTH_DOMAIN); the server must have the adapter on too (POST /api/auth/firebase).
 *
 * OPEN: the sign-in itself needs the `firebase` package (popup sign-in, then the ID token goes to
 * POST /api/auth/firebase). Adding it to the workspace also needs `allowBuilds` entries set to
 * false for `@firebase/util` and `protobufjs` in pnpm-workspace.yaml, or `pnpm install` refuses
 * to run; until then the configured button explains that Google sign-in is unavailable.
 */
import { messages } from '@skyport/shared';
import { uiLabels } from '../../ui/labels.ts';
import { showToast } from '../../ui/toast.tsx';

export const firebaseConfigured = Boolean(import.meta.env.VITE_FIREBASE_API_KEY && import.meta.env.VITE_FIREBASE_AUTH_DOMAIN);

export function GoogleSignIn() {
  if (!firebaseConfigured) return null;
  return (
    <button type="button" className="btn btn-outline" onClick={() => showToast(messages.somethingWentWrong, 'error')}>
      {uiLabels.continueWithGoogle}
    </button>
  );
}
