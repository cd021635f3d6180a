import { z } from 'zod';
import type { User } from '@skyport/shared';
import { signInWithFirebase } from './api/identity-api.ts';

/**
 * Google sign-in through the optional Firebase identity adapter. Firebase only proves who the user
 * is (a popup, then an ID token); the server verifies that token (POST /api/auth/firebase) and
 * opens our own session, exactly as a password login does. The Firebase SDK is the one part that
 * needs Google, so it stays behind `GoogleIdTokenSource` and is loaded on the first click only.
 */

const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

/** The build's web config (public values, not secrets): on only with an API key and auth domain. */
const FirebaseEnvSchema = z
  .object({
    VITE_FIREBASE_API_KEY: z.string().trim().min(1),
    VITE_FIREBASE_AUTH_DOMAIN: z.string().trim().min(1),
    VITE_FIREBASE_PROJECT_ID: optionalText,
    VITE_FIREBASE_APP_ID: optionalText,
  })
  .transform((env) => ({
    apiKey: env.VITE_FIREBASE_API_KEY,
    authDomain: env.VITE_FIREBASE_AUTH_DOMAIN,
    ...(env.VITE_FIREBASE_PROJECT_ID ? { projectId: env.VITE_FIREBASE_PROJECT_ID } : {}),
    ...(env.VITE_FIREBASE_APP_ID ? { appId: env.VITE_FIREBASE_APP_ID } : {}),
  }));
export type FirebaseWebConfig = z.infer<typeof FirebaseEnvSchema>;

/** The Firebase web config of this build, or null when Google sign-in is not configured. */
export function readFirebaseWebConfig(env: Record<string, unknown>): FirebaseWebConfig | null {
  const parsed = FirebaseEnvSchema.safeParse(env);
  return parsed.success ? parsed.data : null;
}

/** Signs the user in at Google and answers the Firebase ID token, or null when they cancelled. */
export type GoogleIdTokenSource = () => Promise<string | null>;

/** What Firebase reports when the user closed or abandoned the popup: not an error to show. */
const DISMISSED_CODES = new Set([
  'auth/popup-closed-by-user',
  'auth/cancelled-popup-request',
  'auth/user-cancelled',
]);

export function isPopupDismissed(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    DISMISSED_CODES.has(String(error.code))
  );
}

/**
 * The real source: Firebase's Google popup. The SDK (`firebase/app`, `firebase/auth`) is imported
 * on the first call, so that it is never part of a page's initial JavaScript.
 */
export function firebaseGoogleIdToken(config: FirebaseWebConfig): GoogleIdTokenSource {
  let loading: ReturnType<typeof loadFirebaseAuth> | null = null;
  return async () => {
    loading ??= loadFirebaseAuth(config).catch((error: unknown) => {
      loading = null; // A chunk that failed to load (offline) is tried again on the next click.
      throw error;
    });
    const { auth, GoogleAuthProvider, signInWithPopup } = await loading;
    try {
      const credential = await signInWithPopup(auth, new GoogleAuthProvider());
      return await credential.user.getIdToken();
    } catch (error) {
      if (isPopupDismissed(error)) return null;
      throw error;
    }
  };
}

async function loadFirebaseAuth(config: FirebaseWebConfig) {
  const [{ initializeApp }, firebaseAuth] = await Promise.all([
    import('firebase/app'),
    import('firebase/auth'),
  ]);
  const auth = firebaseAuth.initializeAuth(initializeApp(config), {
    // Our session cookie is the sign-in; Firebase's user is only needed until the token is read,
    // so it is kept in memory rather than in IndexedDB, where it would outlive a logout.
    persistence: firebaseAuth.inMemoryPersistence,
    popupRedirectResolver: firebaseAuth.browserPopupRedirectResolver,
  });
  return {
    auth,
    GoogleAuthProvider: firebaseAuth.GoogleAuthProvider,
    signInWithPopup: firebaseAuth.signInWithPopup,
  };
}

export interface GoogleSignInDeps {
  /** Google's proof of identity: `firebaseGoogleIdToken(config)`, or a stand-in in tests. */
  getIdToken: GoogleIdTokenSource;
  /** Makes the user the session's user (the app's session store). */
  setUser: (user: User) => void;
}

/**
 * ID token from Firebase → POST /api/auth/firebase (the server verifies it and sets the session
 * cookie) → the session store. Answers the signed-in user, or null when the user closed the popup
 * (nothing is sent then); any other failure is thrown (an `ApiError` for the server's refusal).
 */
export async function signInWithGoogle({
  getIdToken,
  setUser,
}: GoogleSignInDeps): Promise<User | null> {
  const idToken = await getIdToken();
  if (idToken === null) return null;
  const user = await signInWithFirebase(idToken);
  setUser(user);
  return user;
}
