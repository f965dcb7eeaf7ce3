import type { EntityManager } from '@mikro-orm/postgresql';
import { NameExistsError } from '../errors';

/**
 * Usernames and e-mails share one case-insensitive namespace (`user_login_names`, migration 0020): a name belongs to
 * at most one user, whichever property of theirs it is. Login, reset links and the "is it taken" checks read it.
 */

/** The id of the user whose username or e-mail is `name` (any case), if any: at most one user has it. */
export async function userIdByLoginName(em: EntityManager, name: string): Promise<number | undefined> {
  const [row]: Array<{ user_id: number }> = await em.execute('select user_id from user_login_names where name = lower(?)', [name]);
  return row?.user_id;
}

/**
 * Refuses (409 NameExistsError naming the property) a username or e-mail that is already any other user's username
 * or e-mail. The trigger on `users` enforces the same under concurrent writes; this check gives the words first.
 */
export async function refuseTakenLoginNames(tx: EntityManager, names: { username?: string | null; email?: string | null }, exceptUserId?: number): Promise<void> {
  const wanted = (['username', 'email'] as const).flatMap((property) => {
    const value = names[property];
    return value ? [{ property, value }] : [];
  });
  if (wanted.length === 0) return;
  const rows: Array<{ name: string }> = await tx.execute(
    'select name from user_login_names where name in (?) and user_id <> ?', [wanted.map((w) => w.value.toLowerCase()), exceptUserId ?? 0]);
  const taken = new Set(rows.map((r) => r.name));
  const clash = wanted.find((w) => taken.has(w.value.toLowerCase()));
  if (clash) {
    const message = `The ${clash.property} ${clash.value} is already the username or email of another user.`;
    throw new NameExistsError(message, [{ path: clash.property, message }]);
  }
}
