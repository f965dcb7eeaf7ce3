/**
 * `npm run admin:reset-password`: sets a new password for user `admin` on the database the service uses (DATABASE_URL,
 * else the embedded one in DATA_DIR) and prints it; when INIT_ADMIN_PASSWORD is set, that is the new password and
 * nothing is printed. The recovery for a generated password that was never shown (defect 8 of the security review),
 * or simply lost. The change is the one an admin makes: the user's sessions and reset links end, and `user-updated`
 * is written. The embedded database serves one process, so a data folder that a running service holds is refused.
 * Exit codes: 0 done, 1 refused or failed, 2 invalid configuration or arguments.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../src/config';
import { DataFolderInUseError, StartupError } from '../src/db/embedded';
import { openDatabase, type OpenDatabase } from '../src/db/open-database';
import { resetPasswordOf } from '../src/domain/access/generated-credentials';
import { generatePassword } from '../src/domain/access/user.service';
import { DomainError } from '../src/domain/errors';

const NAME = 'flagdeck admin:reset-password';
const USER = 'admin';

const fail = (message: string, code = 1): number => {
  process.stderr.write(`${NAME}: ${message}\n`);
  return code;
};

async function main(): Promise<number> {
  if (process.argv.length > 2) return fail('takes no arguments (the new password comes from INIT_ADMIN_PASSWORD, or is generated).', 2);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) return fail(`invalid configuration: ${err.message}`, 2);
    throw err;
  }
  const where = config.databaseUrl ? 'the PostgreSQL database of DATABASE_URL' : `the embedded database in ${config.dataDir}`;
  // Opening a folder without a database would create an empty one, where there is nobody to reset.
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'pglite'))) {
    return fail(`there is no embedded database in ${config.dataDir}. Set DATA_DIR to the service's data folder (or DATABASE_URL to its PostgreSQL database).`);
  }
  let db: OpenDatabase;
  try {
    db = await openDatabase(config);
  } catch (err) {
    if (err instanceof DataFolderInUseError) {
      return fail(`the data folder ${err.dir} is in use by process ${err.pid}, most likely the running service, and the embedded database serves one process at a time. Stop it, then run this command again.`);
    }
    if (err instanceof StartupError) return fail(err.message);
    throw err;
  }
  try {
    const password = config.initAdminPassword ?? generatePassword();
    await resetPasswordOf(db.orm.em, USER, password);
    process.stdout.write(`Password of user "${USER}" set in ${where}; its sessions and password-reset links have ended.\n`);
    if (config.initAdminPassword === undefined) process.stdout.write(`New password of user "${USER}", shown only this once:\n\n    ${password}\n\n`);
    else process.stdout.write('The new password is the one in INIT_ADMIN_PASSWORD.\n');
    return 0;
  } catch (err) {
    if (err instanceof DomainError) return fail(err.message);
    throw err;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${NAME} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
  },
);
