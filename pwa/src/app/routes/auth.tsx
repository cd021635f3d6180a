import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  messages,
  TOAST_LOGOUT_MS,
  type ChangePasswordInput,
  type LoginInput,
  type RegisterCustomerInput,
} from '@skyport/shared';
import { LoginScreen } from '../../features/identity/components/login-screen.tsx';
import { RegisterScreen } from '../../features/identity/components/register-screen.tsx';
import { ProfileScreen } from '../../features/identity/components/profile-screen.tsx';
import { LogoutChoiceDialog } from '../../features/identity/components/logout-choice-dialog.tsx';
import { deferredLogout } from '../../features/identity/logout/app-deferred-logout.ts';
import {
  logOutKeepingChanges,
  type LogoutChoice,
  type LogoutOutcome,
} from '../../features/identity/logout/log-out.ts';
import {
  ResetPasswordScreen,
  VerifyEmailScreen,
  type VerifyState,
} from '../../features/identity/components/token-screens.tsx';
import * as identity from '../../features/identity/api/identity-api.ts';
import { alertDialog } from '../../ui/dialogs.tsx';
import { Loader } from '../../ui/loader.tsx';
import { showToast } from '../../ui/toast.tsx';
import { uiLabels } from '../../ui/labels.ts';
import { useLocalDataLoader } from '../../data/provider.tsx';
import { ApiError, errorMessage, reportApiError } from '../../api/api-client.ts';
import { refreshSession, setSessionUser, useSession } from '../session.ts';
import { GoogleSignIn, firebaseConfigured } from './google-sign-in.tsx';

export function LoginRoute() {
  const navigate = useNavigate();
  const logIn = async (input: LoginInput) => {
    try {
      const user = await identity.logIn(input);
      setSessionUser(user);
      navigate('/', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 400 || error.status === 401)) {
        await alertDialog({ title: messages.oops, text: messages.invalidCredentials });
      } else {
        await alertDialog({ title: messages.oops, text: errorMessage(error) });
      }
    }
  };
  return (
    <LoginScreen onLogIn={logIn} googleButton={firebaseConfigured ? <GoogleSignIn /> : undefined} />
  );
}

export function RegisterRoute() {
  const navigate = useNavigate();
  const register = async (input: RegisterCustomerInput) => {
    try {
      await identity.register(input);
      await alertDialog({
        title: messages.checkYourEmail,
        text: uiLabels.verificationSent,
        tone: 'success',
      });
      navigate('/login');
    } catch (error) {
      await alertDialog({
        title: messages.oops,
        text: errorMessage(error, messages.somethingWentWrong),
      });
    }
  };
  return <RegisterScreen onRegister={register} />;
}

/** The email link's page: verifies once, then refreshes the session so checkout opens up. */
export function VerifyEmailRoute() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<VerifyState>({ status: 'verifying' });
  useEffect(() => {
    let cancelled = false;
    identity
      .verifyEmail(token)
      .then(() => refreshSession())
      .then(
        () => !cancelled && setState({ status: 'done' }),
        (error: unknown) =>
          !cancelled && setState({ status: 'failed', message: errorMessage(error) }),
      );
    return () => {
      cancelled = true;
    };
  }, [token]);
  return <VerifyEmailScreen state={state} />;
}

export function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  return (
    <ResetPasswordScreen
      token={params.get('token') ?? ''}
      onReset={async (input) => {
        try {
          const text = await identity.resetPassword(input);
          if (text) showToast(text);
          navigate('/login', { replace: true });
        } catch (error) {
          reportApiError(error);
        }
      }}
    />
  );
}

export function ProfileRoute() {
  const session = useSession();
  if (session.status === 'loading') return <Loader />;
  if (!session.user) return <LoginRoute />;
  const changePassword = async (input: ChangePasswordInput) => {
    try {
      const text = await identity.changePassword(input);
      showToast(text ?? messages.passwordChanged);
      return true;
    } catch (error) {
      reportApiError(error);
      return false;
    }
  };
  return (
    <ProfileScreen
      user={session.user}
      onChangePassword={changePassword}
      onResendVerification={() => {
        identity
          .resendVerification()
          .then(() => showToast(messages.checkYourEmail), reportApiError);
      }}
    />
  );
}

/**
 * /logout: pushes the changes still queued, asks what to do when some could not be sent (stay
 * signed in, or log out anyway and lose them), ends the server session (later, when offline),
 * wipes the user's data from this device, then "Log out!" for 2 s and back home (no reload).
 */
let loggingOut: Promise<void> | null = null;
/** Answers the open "changes not sent" question, if any. */
let answerChoice: ((choice: LogoutChoice) => void) | null = null;
let logoutRouteMounted = 0;

export function LogoutRoute() {
  const navigate = useNavigate();
  const loadData = useLocalDataLoader();
  const [unsent, setUnsent] = useState<number | null>(null);

  useEffect(() => {
    logoutRouteMounted += 1;
    return () => {
      logoutRouteMounted -= 1;
      // Left /logout (back button, a link) while asked: nothing is lost, the user stays.
      if (logoutRouteMounted === 0) answerChoice?.('stay');
    };
  }, []);

  useEffect(() => {
    if (loggingOut) return;
    const choose = (count: number) =>
      new Promise<LogoutChoice>((resolve) => {
        answerChoice = (choice) => {
          answerChoice = null;
          setUnsent(null);
          resolve(choice);
        };
        setUnsent(count);
      });
    const signedOut = () => {
      setSessionUser(null);
      showToast(messages.loggedOut, 'success', TOAST_LOGOUT_MS);
      navigate('/', { replace: true });
    };
    loggingOut = (async () => {
      let outcome: LogoutOutcome;
      try {
        const data = await loadData();
        outcome = await logOutKeepingChanges({
          engine: data.engine,
          deferred: deferredLogout,
          choose,
          isOnline: () => navigator.onLine,
        });
      } catch {
        // No local data layer to push from or wipe (it failed to open): end the session anyway.
        deferredLogout.defer();
        await deferredLogout.settle();
        signedOut();
        return;
      }
      if (outcome.status === 'loggedOut') {
        signedOut();
      } else if (logoutRouteMounted > 0) {
        // Stayed: back to where the user was.
        const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
        if (index > 0) navigate(-1);
        else navigate('/', { replace: true });
      }
    })().finally(() => {
      loggingOut = null;
    });
  }, [navigate, loadData]);

  if (unsent === null) return <Loader />;
  return (
    <LogoutChoiceDialog
      unsent={unsent}
      onStay={() => answerChoice?.('stay')}
      onLogOut={() => answerChoice?.('logOut')}
    />
  );
}
