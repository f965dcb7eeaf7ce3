import { z } from 'zod';
import { named, timestamp } from '../shapes';
import { CHANGE_REQUEST_STATES } from './change-request-states';
import { changeSchema } from './change-request.schemas';

/** What both doors answer for change requests and their configuration (src/domain/shapes.ts says how shapes are used). */

/** One environment of a project with its change-request settings (GET …/change-requests/config). */
export const ChangeRequestConfig = named('ChangeRequestConfig', z.object({
  environment: z.string(),
  type: z.string().describe('The environment type'),
  changeRequestsEnabled: z.boolean(),
  requiredApprovals: z.number().int(),
}));
export type ChangeRequestConfig = z.output<typeof ChangeRequestConfig>;

/** Who did something, as the spec shows it. */
export const ChangeRequestActor = named('ChangeRequestActor', z.object({
  username: z.string().nullable(),
  imageUrl: z.string().nullable(),
}));
export type ChangeRequestActor = z.output<typeof ChangeRequestActor>;

export const ChangeRequestApproval = named('ChangeRequestApproval', z.object({
  createdBy: z.object({ id: z.number().int().nullable(), username: z.string().nullable(), imageUrl: z.string().nullable() }),
  createdAt: timestamp,
}), 'An approval or a rejection');
export type ChangeRequestApproval = z.output<typeof ChangeRequestApproval>;

export const ChangeRequestComment = named('ChangeRequestComment', z.object({
  id: z.number().int(),
  text: z.string(),
  createdBy: ChangeRequestActor,
  createdAt: timestamp,
}));
export type ChangeRequestComment = z.output<typeof ChangeRequestComment>;

/** One change as answered: its action, and its payload as the action's shape validated it. */
const [firstChange, ...otherChanges] = changeSchema.options.map((option) => z.object({
  id: z.number().int().describe('Changes when the change is edited'),
  action: option.shape.action,
  conflict: z.string().optional().describe('Only while the request is open and what the change relies on vanished or changed'),
  payload: option.shape.payload,
  createdBy: ChangeRequestActor,
  createdAt: timestamp,
}));
export const ChangeRequestChange = named('ChangeRequestChange', z.discriminatedUnion('action', [firstChange, ...otherChanges]));
export type ChangeRequestChange = z.output<typeof ChangeRequestChange>;

export const ChangeRequestDefaultChange = named('ChangeRequestDefaultChange', z.discriminatedUnion('action', [
  z.object({
    action: z.literal('addStrategy'),
    payload: z.object({
      name: z.string(),
      title: z.string().nullable().optional(),
      disabled: z.boolean().optional(),
      parameters: z.record(z.string(), z.string()),
      constraints: z.array(z.record(z.string(), z.unknown())).describe('As the project environment’s default strategy has them'),
      variants: z.array(z.record(z.string(), z.unknown())).optional().describe('As the project environment’s default strategy has them'),
      segments: z.array(z.number()).optional(),
    }).describe('The project environment’s default strategy, or a 100 % gradual rollout'),
  }),
  z.object({ action: z.literal('updateEnabled'), payload: z.object({ enabled: z.literal(false) }) }),
]), 'A background change applying the request makes to avoid an invalid state');
export type ChangeRequestDefaultChange = z.output<typeof ChangeRequestDefaultChange>;

/** The Change request resource (spec): its changes grouped by feature and by segment. */
export const ChangeRequest = named('ChangeRequest', z.object({
  id: z.number().int(),
  title: z.string(),
  environment: z.string(),
  minApprovals: z.number().int(),
  project: z.string(),
  state: z.enum(CHANGE_REQUEST_STATES),
  features: z.array(z.object({
    name: z.string(),
    conflict: z.string().optional(),
    changes: z.array(ChangeRequestChange),
    defaultChange: ChangeRequestDefaultChange.optional(),
  })),
  segments: z.array(z.object({ id: z.number().int(), name: z.string(), changes: z.array(ChangeRequestChange) })),
  approvals: z.array(ChangeRequestApproval),
  rejections: z.array(ChangeRequestApproval),
  comments: z.array(ChangeRequestComment),
  createdBy: ChangeRequestActor,
  createdAt: timestamp,
  schedule: z.object({
    scheduledAt: timestamp,
    status: z.enum(['pending', 'failed']),
    failureReason: z.string().nullable(),
  }).optional().describe('Only when the state is Scheduled'),
}));
export type ChangeRequest = z.output<typeof ChangeRequest>;
