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
import { ApiError, errorMessage, reportApiError } from '../api-client.ts';
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
          const answer = await identity.resetPassword(input);
          const text =
            answer && typeof answer === 'object' && 'message' in answer
              ? String(answer.message)
              : undefined;
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
      const answer = await identity.changePassword(input);
      const text =
        answer && typeof answer === 'object' && 'message' in answer
          ? String(answer.message)
          : undefined;
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

/** /logout: signs out, "Log out!" for 2 s, back home (no reload). */
let loggingOut: Promise<void> | null = null;

export function LogoutRoute() {
  const navigate = useNavigate();
  useEffect(() => {
    if (loggingOut) return;
    loggingOut = identity
      .logOut()
      .catch(() => undefined)
      .finally(() => {
        loggingOut = null;
        setSessionUser(null);
        showToast(messages.loggedOut, 'success', TOAST_LOGOUT_MS);
        navigate('/', { replace: true });
      });
  }, [navigate]);
  return <Loader />;
}
