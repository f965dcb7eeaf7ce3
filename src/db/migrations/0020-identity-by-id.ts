import { Migration } from '@mikro-orm/migrations';

/**
 * Identity by id, never by name (issue 27, defect 2).
 *
 * `user_login_names`: every user's username and e-mail, lower-cased, in one namespace. Its primary key means a
 * username can never equal another user's e-mail (nor the reverse), whatever the path that writes the user (admin,
 * invite-link signup, SAML), and under concurrent writes; login reads it, so a name resolves to at most one user. A
 * trigger on `users` keeps it, and reports a clash under a constraint name that says which property was taken.
 * Existing users are entered e-mails first: where an earlier version let a username equal another user's e-mail, the
 * e-mail keeps the name (that username no longer signs in, its owner's e-mail still does).
 *
 * Change requests record who acts as an actor key (`user:<id>` or `token:<id>`, see src/domain/access/principal.ts):
 * the author (one Draft per author), each reviewer (one review per reviewer) and the scheduler. Existing rows get the
 * key of their user id; rows written by an API token get the token of that name when there is exactly one, else a
 * `name:` key no caller has (so the row can still be read, cancelled or applied, but not edited as its author).
 */
export class Migration0020IdentityById extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table user_login_names (
  name text primary key,
  user_id integer not null references users (id) on delete cascade,
  property text not null check (property in ('username', 'email'))
)`);
    this.addSql(`create index user_login_names_user_idx on user_login_names (user_id)`);
    this.addSql(`insert into user_login_names (name, user_id, property)
  select lower(email), id, 'email' from users where email is not null order by id on conflict do nothing`);
    this.addSql(`insert into user_login_names (name, user_id, property)
  select lower(username), id, 'username' from users where username is not null order by id on conflict do nothing`);
    // On an update only a changed name is claimed: a user left holding a name an older version let clash can still be
    // edited otherwise.
    const claim = (property: 'username' | 'email') => `
  if new.${property} is not null and (tg_op = 'INSERT' or new.${property} is distinct from old.${property})
     and not exists (select 1 from user_login_names where name = lower(new.${property}) and user_id = new.id) then
    begin
      insert into user_login_names (name, user_id, property) values (lower(new.${property}), new.id, '${property}');
    exception when unique_violation then
      raise exception 'the ${property} is another user''s username or email' using errcode = 'unique_violation', constraint = 'user_login_names_${property}_taken';
    end;
  end if;`;
    this.addSql(`create function users_claim_login_names() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    delete from user_login_names where user_id = new.id and (
      (property = 'username' and new.username is distinct from old.username)
      or (property = 'email' and new.email is distinct from old.email));
  end if;${claim('username')}${claim('email')}
  return null;
end $$`);
    this.addSql(`create trigger users_login_names after insert or update of username, email on users for each row execute function users_claim_login_names()`);

    const actorOf = (userId: string, name: string, table: string) => `coalesce(
  case when ${userId} > 0 then 'user:' || ${userId} end,
  (select 'token:' || min(t.id) from api_tokens t where t.token_name = ${table}.${name} having count(*) = 1),
  'name:' || ${table}.${name})`;
    this.addSql(`alter table change_requests add column created_by_actor text, add column scheduled_by_actor text`);
    this.addSql(`update change_requests set created_by_actor = ${actorOf('created_by_user_id', 'created_by', 'change_requests')},
  scheduled_by_actor = case when scheduled_by is not null then ${actorOf('scheduled_by_user_id', 'scheduled_by', 'change_requests')} end`);
    // Two Drafts of one author under two names (an e-mail changed in between): the older keeps a key nobody has.
    this.addSql(`update change_requests r set created_by_actor = 'name:' || r.created_by || '#' || r.id
  where r.state = 'Draft' and exists (select 1 from change_requests n where n.state = 'Draft' and n.project = r.project
    and n.environment = r.environment and n.created_by_actor = r.created_by_actor and n.id > r.id)`);
    this.addSql(`alter table change_requests alter column created_by_actor set not null`);
    this.addSql(`drop index change_requests_one_draft_idx`);
    this.addSql(`create unique index change_requests_one_draft_per_actor_idx on change_requests (project, environment, created_by_actor) where state = 'Draft'`);

    this.addSql(`alter table change_request_reviews add column created_by_actor text`);
    this.addSql(`update change_request_reviews set created_by_actor = ${actorOf('created_by_user_id', 'created_by', 'change_request_reviews')}`);
    this.addSql(`delete from change_request_reviews r using change_request_reviews n
  where n.change_request_id = r.change_request_id and n.created_by_actor = r.created_by_actor and (n.created_at, n.created_by) > (r.created_at, r.created_by)`);
    this.addSql(`alter table change_request_reviews alter column created_by_actor set not null`);
    this.addSql(`alter table change_request_reviews drop constraint change_request_reviews_pkey`);
    this.addSql(`alter table change_request_reviews add constraint change_request_reviews_pkey primary key (change_request_id, created_by_actor)`);
  }
}
