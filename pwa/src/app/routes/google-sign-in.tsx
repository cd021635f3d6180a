/**
 * "Continue with Google" through the optional Firebase identity adapter. The button appears only
 * when the PWA is built with the adapter's web config (VITE_FIREBASE_API_KEY and
 * VITE_FIREBASE_AUTH_DOMAIN; VITE_FIREBASE_PROJECT_ID and VITE_FIREBASE_APP_ID are passed on when
 * set); the server must have the adapter on too (FIREBASE_PROJECT_ID, POST /api/auth/firebase).
 *
 * A click loads the Firebase SDK (never part of the home page's JavaScript), opens Google's popup
 * and hands the ID token to the server, which opens our own session; then it goes where a
 * password login goes. A popup the user closes changes nothing; any other failure is the generic
 * error toast (features/identity/firebase-sign-in.ts has the flow).
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { messages } from '@skyport/shared';
import {
  firebaseGoogleIdToken,
  readFirebaseWebConfig,
  signInWithGoogle,
} from '../../features/identity/firebase-sign-in.ts';
import { uiLabels } from '../../ui/labels.ts';
import { showToast } from '../../ui/toast.tsx';
import { setSessionUser } from '../session.ts';

const firebaseConfig = readFirebaseWebConfig(import.meta.env);
const googleIdToken = firebaseConfig ? firebaseGoogleIdToken(firebaseConfig) : null;

export const firebaseConfigured = googleIdToken !== null;

export function GoogleSignIn() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  if (!googleIdToken) return null;

  const signIn = async () => {
    setBusy(true);
    try {
      const user = await signInWithGoogle({ getIdToken: googleIdToken, setUser: setSessionUser });
      if (user) navigate('/', { replace: true });
    } catch (error) {
      // Kept in the console: a misconfigured project (unauthorised domain, bad key) shows up there.
      console.error('Google sign-in failed', error);
      showToast(messages.somethingWentWrong, 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <button
      type="button"
      className="btn btn-outline"
      disabled={busy}
      aria-busy={busy}
      onClick={() => void signIn()}
    >
      {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
      {uiLabels.continueWithGoogle}
    </button>
  );
}
