import { ApiTokenSchema } from './access/api-token.entity';
import { ContextFieldSchema } from './context/context-field.entity';
import { EnvironmentSchema } from './environments/environment.entity';
import { EventSchema } from './events/event.entity';
import { FeatureSchema, FeatureTypeSchema } from './features/feature.entity';
import { ProjectEnvironmentSchema, ProjectSchema } from './projects/project.entity';
import { TagSchema, TagTypeSchema } from './tags/tag.entity';

export const entities = [ApiTokenSchema, EventSchema, EnvironmentSchema, ProjectSchema, ProjectEnvironmentSchema, ContextFieldSchema, TagTypeSchema, TagSchema,
  FeatureSchema, FeatureTypeSchema];
