import type { EntityManager } from '@mikro-orm/postgresql';
import { AccessService } from './access/access.service';
import type { Principal } from './access/principal';
import { ContextFieldService } from './context/context-field.service';
import { EnvironmentService } from './environments/environment.service';
import { EventService } from './events/event.service';
import { ProjectService } from './projects/project.service';
import { TagService } from './tags/tag.service';

/** Composition root: the services of one request, sharing its EntityManager fork and principal. */
export function createServices(em: EntityManager, principal: Principal) {
  const access = new AccessService(em, principal);
  return {
    principal,
    access,
    environments: new EnvironmentService(em, principal, access),
    projects: new ProjectService(em, principal, access),
    contextFields: new ContextFieldService(em, principal, access),
    tags: new TagService(em, principal, access),
    events: new EventService(em),
  };
}

export type Services = ReturnType<typeof createServices>;
