import { request } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pino from 'pino';
import { PasswordResetService } from '../../../src/domain/access/password-reset.service';
import { startTestApp, type RequestOptions, type TestApp } from '../../support/harness';
import { responseMismatch } from '../../support/openapi-check';

/**
 * Issue 10, password reset and invite links: POST /api/admin/user-admin/reset-password (ADMIN), GET
 * /auth/reset/validate (spec endpoint 18, D10) and POST /auth/reset/password, through the real app. The log is captured
 * at level trace: no token may appear in it, nor in any event.
 */

// On PostgreSQL the parallel requests below really overlap inside the database (as in concurrency.test.ts).
if (Number(process.env.TEST_DB_POOL_MAX ?? 1) > 1) process.env.TEST_DB_POOL_MAX = '20';

let app: TestApp;
const logLines: string[] = [];
const logSink = new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } });
/** Every token handed out in this file: none may show up in a log line or an event. */
const handedOut = new Set<string>();

beforeAll(async () => { app = await startTestApp({ logger: pino({ level: 'trace' }, logSink) }); });
afterAll(async () => { await app.close(); });

const PASSWORD = 'Old-Password-42';
const NEW_PASSWORD = 'New-Password-43';
const anonymous: RequestOptions = { token: null };
const sql = <T = Record<string, any>>(q: string, params: unknown[] = []) => app.orm.em.fork().execute<T[]>(q, params);

async function createUser(username: string, rootRole: string | number = 'Editor', password: string | null = PASSWORD, email: string | null = `${username}@example.com`) {
  const res = await app.post('/api/admin/user-admin', { username, ...(email ? { email } : {}), name: `Name of ${username}`, ...(password ? { password } : {}), rootRole });
  expect(res.status).toBe(201);
  return res.body as { id: number; username: string; inviteLink: string };
}

const tokenOf = (link: string): string => {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  handedOut.add(token);
  return token;
};

async function resetLink(id: string, options: RequestOptions = {}): Promise<string> {
  const res = await app.post('/api/admin/user-admin/reset-password', { id }, options);
  expect(res.status).toBe(200);
  return tokenOf(res.body.resetPasswordUrl);
}

const validate = (token: string, options: RequestOptions = anonymous) => app.get(`/auth/reset/validate?token=${encodeURIComponent(token)}`, options);
const reset = (token: string, password = NEW_PASSWORD, options: RequestOptions = anonymous) => app.post('/auth/reset/password', { token, password }, options);
const login = async (username: string, password: string) => {
  const res = await app.post('/auth/simple/login', { username, password }, anonymous);
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] };
};

const expectInvalid = (res: { status: number; body: any }) => {
  expect({ status: res.status, name: res.body.name, message: res.body.message }).toEqual({ status: 401, name: 'InvalidTokenError', message: 'Token was not valid' });
  expect(res.body.id).toEqual(expect.any(String));
};

describe('POST /api/admin/user-admin/reset-password', () => {
  it('gives a link <publicUrl>/reset-password?token=<43 base64url characters>; the user is named by username or email in any case', async () => {
    await createUser('rita');
    for (const id of ['rita', 'RITA', 'Rita@Example.com']) {
      const res = await app.post('/api/admin/user-admin/reset-password', { id });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['resetPasswordUrl']);
      expect(res.body.resetPasswordUrl).toMatch(/^http:\/\/localhost:4242\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
      tokenOf(res.body.resetPasswordUrl);
    }
  });

  it('stores only the SHA-256 digest of the token, valid for 24 hours', async () => {
    await createUser('digest');
    const token = await resetLink('digest');
    const [row] = await sql(`select count(*) filter (where token_hash = ?)::int as plain,
      count(*) filter (where token_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex'))::int as digest,
      max(extract(epoch from expires_at - created_at)) filter (where token_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex'))::int as seconds
      from reset_tokens`, [token, token, token]);
    expect(row).toEqual({ plain: 0, digest: 1, seconds: 24 * 60 * 60 });
  });

  it('404 NotFoundError for an unknown user; 400 ValidationError for a missing, empty or extra property (nothing stored)', async () => {
    const before = await sql('select count(*)::int as n from reset_tokens');
    const unknown = await app.post('/api/admin/user-admin/reset-password', { id: 'nobody@example.com' });
    expect({ status: unknown.status, name: unknown.body.name }).toEqual({ status: 404, name: 'NotFoundError' });
    for (const [body, path] of [[{}, 'id'], [{ id: '' }, 'id'], [{ id: 'rita', extra: 1 }, 'extra'], [{ id: 42 }, 'id']] as const) {
      const res = await app.post('/api/admin/user-admin/reset-password', body);
      expect({ status: res.status, name: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ status: 400, name: 'ValidationError', path });
    }
    expect(await sql('select count(*)::int as n from reset_tokens')).toEqual(before);
  });

  it('403 NoAccessError for a user without ADMIN (an Editor); 401 without credentials', async () => {
    await createUser('eddie', 'Editor');
    const { cookie } = await login('eddie', PASSWORD);
    const res = await app.post('/api/admin/user-admin/reset-password', { id: 'rita' }, { token: null, headers: { cookie } });
    expect({ status: res.status, name: res.body.name }).toEqual({ status: 403, name: 'NoAccessError' });
    expect(res.body.message).toContain('"ADMIN" permission');
    const none = await app.post('/api/admin/user-admin/reset-password', { id: 'rita' }, anonymous);
    expect({ status: none.status, name: none.body.name }).toEqual({ status: 401, name: 'AuthenticationRequired' });
  });

  it('a new link expires the older unused ones of the same user, not those of other users', async () => {
    await createUser('twice');
    await createUser('other');
    const other = await resetLink('other');
    const first = await resetLink('twice');
    const second = await resetLink('twice');
    expectInvalid(await validate(first));
    expect((await validate(second)).status).toBe(200);
    expect((await validate(other)).status).toBe(200);
  });

  it('links issued in parallel for one user: exactly one stays valid', async () => {
    await createUser('parallel-issue');
    const answers = await Promise.all(Array.from({ length: 8 }, () => app.post('/api/admin/user-admin/reset-password', { id: 'parallel-issue' })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const checks = await Promise.all(answers.map((a) => validate(tokenOf(a.body.resetPasswordUrl))));
    expect(checks.filter((c) => c.status === 200)).toHaveLength(1);
    expect(checks.filter((c) => c.status === 401)).toHaveLength(7);
  });

  it('expired rows are swept when a link is issued', async () => {
    await createUser('swept');
    const old = await resetLink('swept');
    await sql(`update reset_tokens set expires_at = now() - interval '1 minute' where token_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex')`, [old]);
    const digest = `encode(sha256(convert_to(?, 'UTF8')), 'hex')`;
    expect(await sql(`select count(*)::int as n from reset_tokens where token_hash = ${digest}`, [old])).toEqual([{ n: 1 }]);
    await resetLink('rita');
    expect(await sql(`select count(*)::int as n from reset_tokens where token_hash = ${digest}`, [old])).toEqual([{ n: 0 }]);
  });
});

describe('GET /auth/reset/validate (spec endpoint 18)', () => {
  it('200: the Token user, exactly {id, name, email, token, createdBy, role} with the root role; no credentials needed, an Authorization header ignored', async () => {
    const user = await createUser('vera', 'Editor');
    const token = await resetLink('vera');
    const [editor] = await sql('select id, name, type, description from roles where id = 2');
    const expected = {
      id: user.id, name: 'Name of vera', email: 'vera@example.com', token, createdBy: 'admin',
      role: { id: 2, name: 'Editor', type: 'root', description: editor.description ?? '' },
    };
    for (const options of [anonymous, {}, { token: 'not-a-token' }]) {
      const res = await validate(token, options);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected);
      expect(Object.keys(res.body).sort()).toEqual(['createdBy', 'email', 'id', 'name', 'role', 'token']);
    }
  });

  it('createdBy is the username of the admin user who asked for the link; email is "" for a user with only a username', async () => {
    await createUser('boss', 'Admin');
    await createUser('no-mail', 'Viewer', PASSWORD, null);
    const { cookie } = await login('boss', PASSWORD);
    const token = await resetLink('no-mail', { token: null, headers: { cookie } });
    const res = await validate(token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ createdBy: 'boss', email: '', name: 'Name of no-mail', role: { id: 3, name: 'Viewer', type: 'root' } });
  });

  it('401 InvalidTokenError "Token was not valid" for a missing, empty, repeated, unknown, overlong or expired token', async () => {
    await createUser('ex');
    const token = await resetLink('ex');
    expectInvalid(await app.get('/auth/reset/validate', anonymous));
    expectInvalid(await app.get('/auth/reset/validate?token=', anonymous));
    expectInvalid(await app.get(`/auth/reset/validate?token=${token}&token=${token}`, anonymous));
    expectInvalid(await validate('A'.repeat(43)));
    expectInvalid(await validate('x'.repeat(5000)));
    expect((await validate(token)).status).toBe(200);
    await sql(`update reset_tokens set expires_at = now() - interval '1 second' where token_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex')`, [token]);
    expectInvalid(await validate(token));
    expectInvalid(await reset(token));
  });

  it('a token marked used that has not expired (not written by this service) is a 403 UsedTokenError naming when', async () => {
    await createUser('marked');
    const token = await resetLink('marked');
    await sql(`update reset_tokens set used_at = '2026-01-02T03:04:05Z' where token_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex')`, [token]);
    const res = await validate(token);
    expect({ status: res.status, name: res.body.name, message: res.body.message })
      .toEqual({ status: 403, name: 'UsedTokenError', message: 'Token was already used at 2026-01-02T03:04:05.000Z' });
    const used = await reset(token);
    expect({ status: used.status, name: used.body.name }).toEqual({ status: 403, name: 'UsedTokenError' });
  });

  it('malformed text in the query string is a 400 ValidationError naming `token` (the door guards /auth too)', async () => {
    for (const bad of ['%FF', 'a%00b', '%ED%A0%80']) {
      const res = await app.get(`/auth/reset/validate?token=${bad}`, anonymous);
      expect({ status: res.status, name: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ status: 400, name: 'ValidationError', path: 'token' });
    }
  });

  it('a body of another media type than JSON is a 415 ContentTypeerror, as the spec lists and the reference documents', async () => {
    await createUser('validate-body');
    const token = await resetLink('validate-body');
    // fetch sends no body with a GET: node:http does.
    const url = new URL(`/auth/reset/validate?token=${encodeURIComponent(token)}`, app.url);
    const answer = await new Promise<{ status: number; type: string | null; text: string }>((resolve, reject) => {
      const req = request(url, { method: 'GET', headers: { 'content-type': 'text/plain', 'content-length': '5' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { text += chunk; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? null, text }));
      });
      req.on('error', reject);
      req.end('token');
    });
    expect({ status: answer.status, name: JSON.parse(answer.text).name }).toEqual({ status: 415, name: 'ContentTypeerror' });
    expect(responseMismatch('GET', url.pathname, answer.status, answer.type, answer.text)).toBeUndefined();
    expect((await validate(token)).status).toBe(200);
  });

  it('a token of a deleted user is gone with the user: 401', async () => {
    const user = await createUser('leaving');
    const token = await resetLink('leaving');
    expect((await app.del(`/api/admin/user-admin/${user.id}`)).status).toBe(200);
    expectInvalid(await validate(token));
  });
});

describe('POST /auth/reset/password', () => {
  it('end to end: the link sets the password (200, empty body), ends every session, resets loginAttempts, and is refused afterwards', async () => {
    const user = await createUser('flow');
    const a = await login('flow', PASSWORD);
    const b = await login('flow', PASSWORD);
    expect((await app.get('/api/admin/user', { token: null, headers: { cookie: a.cookie } })).status).toBe(200);
    expect((await login('flow', 'Wrong-Password-1')).status).toBe(401);
    expect((await app.get(`/api/admin/user-admin/${user.id}`)).body.loginAttempts).toBe(1);

    const token = await resetLink('flow');
    expect((await validate(token)).body.id).toBe(user.id);
    const done = await reset(token);
    expect(done.status).toBe(200);
    expect(done.body).toBe('');

    expect((await login('flow', PASSWORD)).status).toBe(401);
    const fresh = await login('flow', NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    for (const old of [a.cookie, b.cookie]) {
      const res = await app.get('/api/admin/user', { token: null, headers: { cookie: old } });
      expect(res.status).toBe(401);
    }
    expect((await app.get('/api/admin/user', { token: null, headers: { cookie: fresh.cookie } })).status).toBe(200);
    expect((await app.get(`/api/admin/user-admin/${user.id}`)).body.loginAttempts).toBe(0);

    expectInvalid(await validate(token));
    expectInvalid(await reset(token, 'Third-Password-44'));
    expect((await login('flow', 'Third-Password-44')).status).toBe(401);

    const [event] = await app.events('user-updated');
    expect(event).toMatchObject({ createdBy: 'flow', createdByUserId: user.id, data: { id: user.id, username: 'flow', passwordChanged: true }, preData: { id: user.id, username: 'flow' } });
    expect(JSON.stringify(event)).not.toContain(token);
    expect(JSON.stringify(event)).not.toContain(NEW_PASSWORD);
  });

  it('using a link ends the other links of the user', async () => {
    await createUser('two-links');
    const first = await resetLink('two-links');
    const second = await resetLink('two-links');
    // Issuing the second expired the first; revive it, so the user holds two valid links at once.
    await sql(`update reset_tokens set expires_at = now() + interval '1 hour' where token_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex')`, [first]);
    expect((await validate(first)).status).toBe(200);
    expect((await reset(second)).status).toBe(200);
    expectInvalid(await validate(first));
  });

  it('a password set by an admin or changed by its user ends the links still out', async () => {
    const invited = await createUser('set-by-admin', 'Viewer', null);
    const invite = tokenOf(invited.inviteLink);
    expect((await app.post(`/api/admin/user-admin/${invited.id}/change-password`, { password: PASSWORD })).status).toBe(200);
    expectInvalid(await validate(invite));

    await createUser('changes-own');
    const link = await resetLink('changes-own');
    const { cookie } = await login('changes-own', PASSWORD);
    expect((await app.post('/api/admin/user/change-password', { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, { token: null, headers: { cookie } })).status).toBe(200);
    expectInvalid(await validate(link));
  });

  it('a weak password is a 400 ValidationError naming `password`, and the token stays valid; malformed bodies are 400/415 and change nothing', async () => {
    await createUser('weak');
    const token = await resetLink('weak');
    const weak = await reset(token, 'password');
    expect({ status: weak.status, name: weak.body.name, path: weak.body.details?.[0]?.path }).toEqual({ status: 400, name: 'ValidationError', path: 'password' });
    const cases: Array<[unknown, string]> = [
      [{ token }, 'password'],
      [{ password: NEW_PASSWORD }, 'token'],
      [{ token, password: NEW_PASSWORD, extra: true }, 'extra'],
      [{ token: 42, password: NEW_PASSWORD }, 'token'],
      [{ token, password: ['x'] }, 'password'],
      [[token, NEW_PASSWORD], ''],
    ];
    for (const [body, path] of cases) {
      const res = await app.post('/auth/reset/password', body, anonymous);
      expect({ body, status: res.status, name: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ body, status: 400, name: 'ValidationError', path });
    }
    const noBody = await app.post('/auth/reset/password', undefined, anonymous);
    expect({ status: noBody.status, name: noBody.body.name }).toEqual({ status: 400, name: 'ValidationError' });
    const notJson = await app.post('/auth/reset/password', undefined, { token: null, raw: `token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect({ status: notJson.status, name: notJson.body.name }).toEqual({ status: 415, name: 'ContentTypeerror' });
    const broken = await app.post('/auth/reset/password', undefined, { token: null, raw: '{"token": ' });
    expect({ status: broken.status, name: broken.body.name }).toEqual({ status: 400, name: 'ValidationError' });
    expect((await validate(token)).status).toBe(200);
    expect((await login('weak', PASSWORD)).status).toBe(200);
  });

  it('an Authorization header is ignored, valid or not', async () => {
    await createUser('with-header');
    const token = await resetLink('with-header');
    expect((await reset(token, NEW_PASSWORD, { token: 'garbage' })).status).toBe(200);
    expect((await login('with-header', NEW_PASSWORD)).status).toBe(200);
  });

  it('N parallel resets with one token: exactly one 200, every other a 401, and the winner\'s password is the one set', async () => {
    await createUser('race');
    const token = await resetLink('race');
    const N = 10;
    const passwords = Array.from({ length: N }, (_, i) => `Race-Password-${i}x`);
    const answers = await Promise.all(passwords.map((p) => reset(token, p)));
    const winners = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectInvalid(a);
    expect((await login('race', passwords[winners[0]])).status).toBe(200);
    const events = (await app.events('user-updated')).filter((e) => e.data?.username === 'race');
    expect(events).toHaveLength(1);
  });
});

describe('invite links for new users', () => {
  it('a user created without a password gets <publicUrl>/new-user?token=…, in the create answer only; the link sets the password', async () => {
    const user = await createUser('invited', 'Viewer', null);
    expect(user.inviteLink).toMatch(/^http:\/\/localhost:4242\/new-user\?token=[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(user.inviteLink);
    expect((await app.get(`/api/admin/user-admin/${user.id}`)).body.inviteLink).toBe('');
    expect((await app.get('/api/admin/user-admin')).body.users.find((u: { id: number }) => u.id === user.id).inviteLink).toBe('');
    const check = await validate(token);
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ id: user.id, createdBy: 'admin', role: { id: 3, name: 'Viewer' } });
    expect((await reset(token)).status).toBe(200);
    expect((await login('invited', NEW_PASSWORD)).status).toBe(200);
    const [created] = await app.events('user-created');
    expect(JSON.stringify(created)).not.toContain(token);
  });

  it('a user created with a password gets an invite link too (as Unleash, which sends no email here); both its password and the link work', async () => {
    const user = await createUser('has-password');
    const token = tokenOf(user.inviteLink);
    expect(await sql('select count(*)::int as n from reset_tokens where user_id = ? and expires_at > now()', [user.id])).toEqual([{ n: 1 }]);
    expect((await login('has-password', PASSWORD)).status).toBe(200);
    expect((await validate(token)).status).toBe(200);
  });
});

describe('secrets stay out of logs and events', () => {
  it('an unexpected error on a path carrying a token is logged with the token redacted', async () => {
    await createUser('logged');
    const token = await resetLink('logged');
    const spy = jest.spyOn(PasswordResetService.prototype, 'validate').mockRejectedValueOnce(new Error('simulated failure'));
    try {
      const res = await validate(token);
      expect(res.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    const line = logLines.find((l) => l.includes('simulated failure'));
    expect(line).toBeDefined();
    expect(line).toContain('/auth/reset/validate?token=[redacted]');
    expect((await validate(token)).status).toBe(200);
  });

  it('no token handed out in this file appears in a log line (level trace) or an event', async () => {
    expect(handedOut.size).toBeGreaterThan(20);
    expect(logLines.length).toBeGreaterThan(0);
    const everything = [logLines.join('\n'), JSON.stringify(await app.events())].join('\n');
    const leaked = [...handedOut].filter((t) => everything.includes(t));
    expect(leaked).toEqual([]);
  });
});
