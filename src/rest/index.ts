import { Router } from 'express';
import { addonsRouter } from './addons.routes';
import { backupRouter } from './backup.routes';
import { changeRequestsRouter } from './change-requests.routes';
import { changeRequestPreviewRouter } from './change-request-preview.routes';
import { contextRouter } from './context.routes';
import { environmentsRouter } from './environments.routes';
import { eventsRouter } from './events.routes';
import { featuresRouter } from './features.routes';
import { groupsRouter } from './groups.routes';
import { historyRouter } from './history.routes';
import { lifecycleRouter } from './lifecycle.routes';
import { unknownFlagsRouter } from './unknown-flags.routes';
import { importExportRouter } from './import-export.routes';
import { metricsRouter } from './metrics.routes';
import { playgroundRouter } from './playground.routes';
import { projectSettingsRouter } from './project-settings.routes';
import { projectsRouter } from './projects.routes';
import { segmentsRouter } from './segments.routes';
import { strategiesRouter } from './strategies.routes';
import { tagsRouter } from './tags.routes';
import { rolesRouter } from './roles.routes';
import { signupTokensRouter } from './signup-tokens.routes';
import { samlSettingsRouter } from './saml-settings.routes';
import { stateExportRouter } from './state-export.routes';
import { uiConfigRouter } from './ui-config.routes';
import { usersRouter } from './users.routes';

/** Every `/api/admin` route. Routes parse, call one service method and shape the JSON; nothing else. */
export function adminRouter(): Router {
  const r = Router();
  r.use(environmentsRouter(), projectsRouter(), projectSettingsRouter(), contextRouter(), tagsRouter(), segmentsRouter(), eventsRouter(), strategiesRouter(), historyRouter(), lifecycleRouter(), featuresRouter(), playgroundRouter(), usersRouter(), rolesRouter(), groupsRouter(), signupTokensRouter(), samlSettingsRouter(), addonsRouter(), changeRequestsRouter(), changeRequestPreviewRouter(), importExportRouter(), stateExportRouter(), metricsRouter(), unknownFlagsRouter(), uiConfigRouter(), backupRouter());
  return r;
}
