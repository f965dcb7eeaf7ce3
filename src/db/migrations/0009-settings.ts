import { Migration } from '@mikro-orm/migrations';

/**
 * Settings and SAML sign-in (issue 10).
 *
 * - `settings`: one JSON document per name, as Unleash keeps its settings. `saml` holds the SAML settings (spec
 *   endpoint 11); `saml-sp-key` the service provider's own signing key pair (private key and self-signed
 *   certificate), generated once. Nothing in this table is ever returned whole: the services pick what they show.
 * - `saml_message_ids`: ids of SAML messages, shared by every instance, each with an expiry: `request` rows are the
 *   AuthnRequests and LogoutRequests the service issued (an answer's InResponseTo must name one, once); `assertion`
 *   rows are the assertions already accepted, so a response replayed to any instance is refused while it would
 *   still be valid. Expired rows are swept as new ones are written.
 * - `saml_sessions`: for a session opened by SAML, the NameID and SessionIndex the IdP gave, which single logout sends
 *   back. Ends with the session.
 */
export class Migration0009Settings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table settings (
  name text primary key,
  content jsonb not null
)`);
    this.addSql(`create table saml_message_ids (
  kind text not null check (kind in ('request', 'assertion')),
  id text not null,
  value text not null default '',
  expires_at timestamptz not null,
  primary key (kind, id)
)`);
    this.addSql(`create index saml_message_ids_expires_idx on saml_message_ids (expires_at)`);
    this.addSql(`create table saml_sessions (
  sid_hash text primary key references user_sessions (sid_hash) on delete cascade,
  name_id text not null,
  name_id_format text,
  session_index text
)`);
  }
}
