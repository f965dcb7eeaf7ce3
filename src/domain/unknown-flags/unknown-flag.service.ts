import type { EntityManager } from '@mikro-orm/postgresql';
import { listUnknownFlags } from './unknown-flag.read-model';
import type { UnknownFlag } from './unknown-flag.shapes';

/**
 * Unknown flags (issue 44): names SDKs report that no flag has, so a typo in code or a flag deleted too early shows.
 * They are recorded by the metrics flush (unknown-flag.store.ts); reading them is open to any admin-API principal, as
 * the applications' metrics are.
 */
export class UnknownFlagService {
  constructor(private readonly em: EntityManager) {}

  list(): Promise<UnknownFlag[]> {
    return listUnknownFlags(this.em);
  }
}
