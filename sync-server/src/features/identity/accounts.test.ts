import { messages } from '@skyport/shared';
import { describe, expect, test } from 'vitest';
import { bodyOf, createTestHarness, jsonRequest, randomIp } from '../../test/harness.ts';
import { ACTOR_PASSWORD, insertUser } from '../../test/actors.ts';
import { hashToken } from './tokens.ts';
import { lastMailTo, snapshot, tokenFromMail } from './testing.ts';

const { sql, app, background, actors } = await createTestHarness({
  actors: true,
  identity: { appOrigins: ['https://skyport.example'] },
});

let counter = 0;
function registration(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    name: 'María José',
    lastName: 'Núñez',
    image: 'https://images.test/face.png',
    email: `Reg-${counter}-${Date.now()}@Example.test`,
    phone: '+123 456 7890',
    password: 'Secret1!',
    confirmPassword: 'Secret1!',
    ...overrides,
  };
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await app.request(
    path,
    jsonRequest('POST', body, { 'X-Forwarded-For': randomIp(), ...headers }),
  );
  await background.settled();
  return response;
}

async function login(email: string, password: string) {
  return post('/api/auth/login', { email, password });
}

describe('registration', () => {
  test('a customer account is created unverified, with a verification email (text + HTML)', async () => {
    const input = registration();
    const response = await post('/api/auth/register', input);
    expect(response.status).toBe(202);
    expect(await bodyOf(response)).toEqual({ message: messages.checkYourEmail });

    const [user] = await sql`SELECT * FROM users WHERE email = ${input.email.toLowerCase()}`;
    expect(user).toMatchObject({
      role: 'customer',
      airline_status: null,
      email_verified: false,
      disabled: false,
      name: 'María José',
    });
    expect(user!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const mail = await lastMailTo(sql, input.email);
    expect(mail!.subject).toBe('Verify your email for Skyport');
    expect(mail!.text_body).toMatch(
      /https:\/\/skyport\.example\/verify-email\?token=[A-Za-z0-9_-]{43}/,
    );
    expect(mail!.html_body).toContain('<a href="https://skyport.example/verify-email?token=');
    expect(mail!.html_body).toContain('María José');
  });

  test('an airline registration creates a pending airline account and no airline yet', async () => {
    const input = registration({
      name: 'Aerolíneas Sur',
      image: 'https://images.test/logo.png',
      terms: true,
    });
    const response = await post('/api/auth/register/airline', input);
    expect(response.status).toBe(202);
    expect(await bodyOf(response)).toEqual({ message: messages.airlineRegistered });
    const [user] =
      await sql`SELECT id, role, airline_status FROM users WHERE email = ${input.email.toLowerCase()}`;
    expect(user).toMatchObject({ role: 'airline', airline_status: 'pending' });
    expect(await sql`SELECT 1 FROM airlines WHERE owner_user_id = ${user!.id}`).toHaveLength(0);

    const { user: me } = await bodyOf(login(input.email, 'Secret1!'));
    expect(me).toMatchObject({
      role: 'airline',
      airlineStatus: 'pending',
      empresa: false,
      permissions: false,
      airlineId: null,
    });
  });

  test('the airline form needs the terms and a jpg/png/gif/bmp logo', async () => {
    const before = await snapshot(sql);
    const noTerms = await post(
      '/api/auth/register/airline',
      registration({ image: 'https://images.test/logo.png' }),
    );
    expect(noTerms.status).toBe(400);
    expect((await bodyOf(noTerms)).message).toBe(`terms: ${messages.agreeToTerms}`);
    const badLogo = await post(
      '/api/auth/register/airline',
      registration({ image: 'https://images.test/logo.svg', terms: true }),
    );
    expect(badLogo.status).toBe(400);
    expect((await bodyOf(badLogo)).message).toBe(`image: ${messages.provideImage}`);
    expect(await snapshot(sql)).toEqual(before);
  });

  test('§5 messages come back as they are', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'R2D2' }, messages.firstNameInvalid],
      [{ lastName: 'x'.repeat(41) }, messages.lastNameInvalid],
      [{ image: 'nope' }, messages.provideImage],
      [{ email: 'nope' }, messages.enterEmailValid],
      [{ phone: '12' }, messages.enterPhoneValid],
      [{ password: 'short', confirmPassword: 'short' }, messages.passwordRule],
      [{ confirmPassword: 'Other1!x' }, messages.passwordMismatch],
    ];
    for (const [override, message] of cases) {
      const response = await post('/api/auth/register', registration(override));
      expect(response.status).toBe(400);
      const body = await bodyOf(response);
      expect(body.details.map((issue: { message: string }) => issue.message)).toContain(message);
    }
  });

  test('a client cannot choose its role or verified flag', async () => {
    const response = await post('/api/auth/register', {
      ...registration(),
      role: 'super_admin',
      emailVerified: true,
    });
    expect(response.status).toBe(400);
  });

  test('registering an existing address answers the same and creates nothing; the owner gets a notice', async () => {
    const fresh = await post('/api/auth/register', registration());
    const existing = await post(
      '/api/auth/register',
      registration({ email: actors.customer.email!.toUpperCase() }),
    );
    expect(existing.status).toBe(fresh.status);
    expect(await bodyOf(existing)).toEqual({ message: messages.checkYourEmail });
    expect(
      await sql`SELECT 1 FROM users WHERE lower(email) = ${actors.customer.email!}`,
    ).toHaveLength(1);
    // The original password still works; the attempt changed nothing.
    expect((await login(actors.customer.email!, ACTOR_PASSWORD)).status).toBe(200);
    const mail = await lastMailTo(sql, actors.customer.email!);
    expect(mail!.subject).toBe('Your Skyport account');
    expect(mail!.text_body).toContain('already has an account');
  });

  test('new and existing addresses take comparable time (both hash a password)', async () => {
    const time = async (body: unknown) => {
      const started = performance.now();
      await app.request(
        '/api/auth/register',
        jsonRequest('POST', body, { 'X-Forwarded-For': randomIp() }),
      );
      return performance.now() - started;
    };
    const fresh: number[] = [];
    const existing: number[] = [];
    // Interleaved, each kind first in turn, so that a busy machine slows both alike.
    for (let i = 0; i < 5; i++) {
      const freshOne = () => time(registration());
      const existingOne = () => time(registration({ email: actors.customer.email }));
      if (i % 2 === 0) {
        fresh.push(await freshOne());
        existing.push(await existingOne());
      } else {
        existing.push(await existingOne());
        fresh.push(await freshOne());
      }
    }
    await background.settled();
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2]!;
    // An existing address must not answer in a fraction of the time of a new one. Both hash a
    // password (argon2id, tens of ms), so they are alike; one that skipped the hash would answer
    // in a few per cent of the time, far below this third.
    expect(median(existing)).toBeGreaterThan(median(fresh) / 3);
  });

  test('concurrent registrations of one address create one account', async () => {
    const input = registration();
    const responses = await Promise.all([1, 2, 3].map(() => post('/api/auth/register', input)));
    expect(responses.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(await sql`SELECT 1 FROM users WHERE email = ${input.email.toLowerCase()}`).toHaveLength(
      1,
    );
  });
});

describe('email verification', () => {
  async function registerAndToken() {
    const input = registration();
    await post('/api/auth/register', input);
    return {
      email: input.email.toLowerCase(),
      token: await tokenFromMail(sql, input.email, 'verify-email'),
    };
  }
  const verified = async (email: string) =>
    (
      await sql<
        { email_verified: boolean }[]
      >`SELECT email_verified FROM users WHERE email = ${email}`
    )[0]?.email_verified;

  test('the link verifies the address once', async () => {
    const { email, token } = await registerAndToken();
    const first = await post('/api/auth/verify-email', { token });
    expect(first.status).toBe(200);
    expect(await bodyOf(first)).toEqual({ message: messages.emailVerifiedDone });
    expect(await verified(email)).toBe(true);

    const again = await post('/api/auth/verify-email', { token });
    expect(again.status).toBe(400);
    expect(await bodyOf(again)).toMatchObject({
      code: 'bad_request',
      message: messages.linkInvalid,
    });
  });

  test('only the hash of the token is stored', async () => {
    const { token } = await registerAndToken();
    expect(
      await sql`SELECT 1 FROM auth_tokens WHERE token_hash = ${hashToken(token)} AND purpose = 'verify_email'`,
    ).toHaveLength(1);
  });

  test('an expired link does not verify', async () => {
    const { email, token } = await registerAndToken();
    await sql`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ${hashToken(token)}`;
    expect((await post('/api/auth/verify-email', { token })).status).toBe(400);
    expect(await verified(email)).toBe(false);
  });

  test('links expire after 24 hours', async () => {
    const { token } = await registerAndToken();
    const [row] = await sql<{ hours: number }[]>`
      SELECT extract(epoch FROM expires_at - created_at) / 3600 AS hours FROM auth_tokens WHERE token_hash = ${hashToken(token)}`;
    expect(Number(row!.hours)).toBeCloseTo(24, 1);
  });

  test('a reset token is not a verification token', async () => {
    const { email } = await registerAndToken();
    await post('/api/auth/password/forgot', { email });
    const resetToken = await tokenFromMail(sql, email, 'reset-password');
    expect((await post('/api/auth/verify-email', { token: resetToken })).status).toBe(400);
  });

  test('resend: a new link for the signed-in unverified user; the old one stops working', async () => {
    const { email, token: oldToken } = await registerAndToken();
    const { token: session } = await bodyOf(login(email, 'Secret1!'));
    const resend = await post(
      '/api/auth/verify-email/resend',
      {},
      { Authorization: `Bearer ${session}` },
    );
    expect(resend.status).toBe(202);
    const newToken = await tokenFromMail(sql, email, 'verify-email');
    expect(newToken).not.toBe(oldToken);
    expect((await post('/api/auth/verify-email', { token: oldToken })).status).toBe(400);
    expect((await post('/api/auth/verify-email', { token: newToken })).status).toBe(200);
    const me = await app.request('/api/auth/me', {
      headers: { Authorization: `Bearer ${session}` },
    });
    expect((await bodyOf(me)).user.emailVerified).toBe(true);
    const again = await post(
      '/api/auth/verify-email/resend',
      {},
      { Authorization: `Bearer ${session}` },
    );
    expect(again.status).toBe(409);
  });
});

describe('password reset', () => {
  test('the answer is the same for an existing and an unknown address, and only the existing one gets mail', async () => {
    const user = await insertUser(sql);
    const before = await sql`SELECT count(*)::int AS n FROM email_outbox`;
    const known = await post('/api/auth/password/forgot', { email: user.email });
    const unknown = await post('/api/auth/password/forgot', { email: 'no-such-user@actors.test' });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(await bodyOf(known)).toEqual({ message: messages.checkYourEmail });
    expect(await bodyOf(unknown)).toEqual({ message: messages.checkYourEmail });
    const after = await sql`SELECT count(*)::int AS n FROM email_outbox`;
    expect(after[0]!.n - before[0]!.n).toBe(1);
    expect((await lastMailTo(sql, user.email))!.subject).toBe('Reset your Skyport password');
  });

  test('the spec path POST /user/resetPassword/{email} behaves the same', async () => {
    const user = await insertUser(sql);
    const response = await post(
      `/api/user/resetPassword/${encodeURIComponent(user.email)}`,
      undefined,
    );
    expect(response.status).toBe(202);
    expect(await bodyOf(response)).toEqual({ message: messages.checkYourEmail });
    expect(await tokenFromMail(sql, user.email, 'reset-password')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('the link sets a new password once, verifies the address and ends every session', async () => {
    const user = await insertUser(sql, { emailVerified: false });
    const sessions = await Promise.all(
      [1, 2].map(async () => (await bodyOf(login(user.email, ACTOR_PASSWORD))).token),
    );
    await post('/api/auth/password/forgot', { email: user.email });
    const token = await tokenFromMail(sql, user.email, 'reset-password');

    const reset = await post('/api/auth/password/reset', { token, password: 'Brand-New1!' });
    expect(reset.status).toBe(200);
    expect(await bodyOf(reset)).toEqual({ message: messages.passwordChanged });
    for (const session of sessions) {
      expect(
        (await app.request('/api/auth/me', { headers: { Authorization: `Bearer ${session}` } }))
          .status,
      ).toBe(401);
    }
    expect((await login(user.email, ACTOR_PASSWORD)).status).toBe(401);
    const fresh = await login(user.email, 'Brand-New1!');
    expect(fresh.status).toBe(200);
    expect((await bodyOf(fresh)).user.emailVerified).toBe(true);

    const reuse = await post('/api/auth/password/reset', { token, password: 'Another-One1!' });
    expect(reuse.status).toBe(400);
    expect((await login(user.email, 'Brand-New1!')).status).toBe(200);
  });

  test('an expired link changes nothing', async () => {
    const user = await insertUser(sql);
    await post('/api/auth/password/forgot', { email: user.email });
    const token = await tokenFromMail(sql, user.email, 'reset-password');
    await sql`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ${hashToken(token)}`;
    const before = await snapshot(sql);
    expect(
      (await post('/api/auth/password/reset', { token, password: 'Brand-New1!' })).status,
    ).toBe(400);
    expect(await snapshot(sql)).toEqual(before);
    expect((await login(user.email, ACTOR_PASSWORD)).status).toBe(200);
  });

  test('reset links expire after one hour, and a newer link retires the older one', async () => {
    const user = await insertUser(sql);
    await post('/api/auth/password/forgot', { email: user.email });
    const first = await tokenFromMail(sql, user.email, 'reset-password');
    const [row] = await sql<{ minutes: number }[]>`
      SELECT extract(epoch FROM expires_at - created_at) / 60 AS minutes FROM auth_tokens WHERE token_hash = ${hashToken(first)}`;
    expect(Number(row!.minutes)).toBeCloseTo(60, 1);
    await post('/api/auth/password/forgot', { email: user.email });
    const second = await tokenFromMail(sql, user.email, 'reset-password');
    expect(
      (await post('/api/auth/password/reset', { token: first, password: 'Brand-New1!' })).status,
    ).toBe(400);
    expect(
      (await post('/api/auth/password/reset', { token: second, password: 'Brand-New1!' })).status,
    ).toBe(200);
  });

  test('a disabled account gets no reset mail (and the same answer)', async () => {
    const before = await sql`SELECT count(*)::int AS n FROM email_outbox`;
    const response = await post('/api/auth/password/forgot', { email: actors.disabledUser.email });
    expect(response.status).toBe(202);
    const after = await sql`SELECT count(*)::int AS n FROM email_outbox`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  test('concurrent use of one link succeeds once', async () => {
    const user = await insertUser(sql);
    await post('/api/auth/password/forgot', { email: user.email });
    const token = await tokenFromMail(sql, user.email, 'reset-password');
    const statuses = await Promise.all(
      ['Brand-New1!', 'Brand-New2!', 'Brand-New3!'].map(
        async (password) => (await post('/api/auth/password/reset', { token, password })).status,
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(2);
  });
});

describe('change password', () => {
  test('needs the old password; ends the other sessions and keeps the current one', async () => {
    const user = await insertUser(sql);
    const current = (await bodyOf(login(user.email, ACTOR_PASSWORD))).token as string;
    const other = (await bodyOf(login(user.email, ACTOR_PASSWORD))).token as string;
    const auth = { Authorization: `Bearer ${current}` };

    const wrong = await post(
      '/api/auth/password/change',
      { oldPassword: 'Nope-Nope1!', newPassword: 'Changed-1!' },
      auth,
    );
    expect(wrong.status).toBe(403);
    expect((await bodyOf(wrong)).message).toBe(messages.invalidCredentials);

    const weak = await post(
      '/api/auth/password/change',
      { oldPassword: ACTOR_PASSWORD, newPassword: 'weak' },
      auth,
    );
    expect(weak.status).toBe(400);

    const ok = await post(
      '/api/auth/password/change',
      { oldPassword: ACTOR_PASSWORD, newPassword: 'Changed-1!' },
      auth,
    );
    expect(ok.status).toBe(200);
    expect((await app.request('/api/auth/me', { headers: auth })).status).toBe(200);
    expect(
      (await app.request('/api/auth/me', { headers: { Authorization: `Bearer ${other}` } })).status,
    ).toBe(401);
    expect((await login(user.email, ACTOR_PASSWORD)).status).toBe(401);
    expect((await login(user.email, 'Changed-1!')).status).toBe(200);
  });

  test('an account without a password is told to use the reset link', async () => {
    const user = await insertUser(sql, { withPassword: false });
    const { createSession } = await import('./sessions.ts');
    const session = await createSession(sql, user.id, 600);
    const response = await post(
      '/api/auth/password/change',
      { oldPassword: 'Anything1!', newPassword: 'Changed-1!' },
      { Authorization: `Bearer ${session.token}` },
    );
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).message).toBe(messages.noPasswordSet);
  });
});
