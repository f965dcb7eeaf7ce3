import type { AddonDefinition, AddonParameter } from './addon.shapes';

/**
 * The addon providers (issue 11): what `GET /api/admin/addons` lists as `providers`, and what the addon service
 * validates parameters against. The parameter sets follow Unleash v5.8's definitions (webhook, slack, teams, datadog);
 * `events` is the advisory list of event types each provider is meant for (any event type may be chosen, as in Unleash).
 */

const param = (name: string, displayName: string, type: AddonParameter['type'], description: string, required: boolean, sensitive: boolean, placeholder?: string): AddonParameter =>
  ({ name, displayName, type, description, required, sensitive, ...(placeholder === undefined ? {} : { placeholder }) });

const customHeaders = param('customHeaders', 'Extra HTTP Headers', 'textfield',
  '(Optional) Extra headers to send with each request, as a JSON object of header names and values, for example {"X-Team": "flags"}.', false, true, '{}');

/** Feature lifecycle events: what the chat providers announce. */
const FEATURE_EVENTS = [
  'feature-created', 'feature-updated', 'feature-archived', 'feature-revived', 'feature-stale-on', 'feature-stale-off',
  'feature-environment-enabled', 'feature-environment-disabled', 'feature-strategy-remove', 'feature-strategy-update', 'feature-strategy-add',
  'feature-metadata-updated', 'feature-variants-updated', 'feature-project-change', 'feature-potentially-stale-on',
];

const CHANGE_REQUEST_EVENTS = [
  'change-request-created', 'change-request-discarded', 'change-added', 'change-discarded', 'change-edited', 'change-request-rejected',
  'change-request-approved', 'change-request-approval-added', 'change-request-cancelled', 'change-request-sent-to-review',
  'change-request-applied', 'change-request-scheduled', 'change-request-scheduled-application-success', 'change-request-scheduled-application-failure',
];

export const PROVIDERS: readonly AddonDefinition[] = [
  {
    name: 'webhook',
    displayName: 'Webhook',
    description: 'A Webhook is a generic way to post messages from flagdeck to third party services.',
    documentationUrl: 'https://docs.getunleash.io/docs/addons/webhook',
    parameters: [
      param('url', 'Webhook URL', 'url', 'The URL the events are posted to (an absolute http or https URL).', true, true),
      param('contentType', 'Content-Type', 'text', '(Optional) The Content-Type header to use. Defaults to "application/json".', false, false, 'application/json'),
      param('authorization', 'Authorization', 'text', '(Optional) The Authorization header to use. Not used if left blank.', false, true),
      customHeaders,
      param('bodyTemplate', 'Body template', 'textfield', '(Optional) A Mustache template rendered over {event} as the request body. When blank, the event is sent as JSON.', false, false),
    ],
    tagTypes: [],
    events: [...FEATURE_EVENTS, 'feature-tagged', 'feature-untagged', ...CHANGE_REQUEST_EVENTS],
  },
  {
    name: 'slack',
    displayName: 'Slack',
    description: 'Allows flagdeck to post updates to Slack.',
    documentationUrl: 'https://docs.getunleash.io/docs/addons/slack',
    parameters: [
      param('url', 'Slack webhook URL', 'url', 'The incoming webhook URL of the Slack workspace.', true, true),
      param('username', 'Username', 'text', 'The username to post as. Defaults to "Unleash".', false, false, 'Unleash'),
      param('emojiIcon', 'Emoji Icon', 'text', 'The emoji_icon to use when posting messages to Slack. Defaults to ":unleash:".', false, false, ':unleash:'),
      param('defaultChannel', 'Default channel', 'text', 'The default channel to post to; a feature tagged slack:<channel> posts to that channel instead.', true, false),
      customHeaders,
    ],
    tagTypes: [{ name: 'slack', description: 'Slack tag used by the slack-addon to specify the slack channel.', icon: 'S' }],
    events: FEATURE_EVENTS,
  },
  {
    name: 'teams',
    displayName: 'Microsoft Teams',
    description: 'Allows flagdeck to post updates to Microsoft Teams.',
    documentationUrl: 'https://docs.getunleash.io/docs/addons/teams',
    parameters: [
      param('url', 'Microsoft Teams webhook', 'url', 'The incoming webhook URL of the Teams channel.', true, true),
      customHeaders,
    ],
    tagTypes: [],
    events: FEATURE_EVENTS,
  },
  {
    name: 'datadog',
    displayName: 'Datadog',
    description: 'Allows flagdeck to post updates to Datadog.',
    documentationUrl: 'https://docs.getunleash.io/docs/addons/datadog',
    parameters: [
      param('url', 'Datadog Events URL', 'url', 'The events API URL of your Datadog site. Defaults to https://api.datadoghq.com/api/v1/events.', false, false, 'https://api.datadoghq.com/api/v1/events'),
      param('apiKey', 'Datadog API key', 'text', 'The API key to post to Datadog with.', true, true, 'j96c23b0f12a6b3434a8d710110bd862'),
      param('sourceTypeName', 'Datadog Source Type Name', 'text', '(Optional) source_type_name of the events. Defaults to none.', false, false),
      customHeaders,
      param('bodyTemplate', 'Body template', 'textfield', '(Optional) A Mustache template rendered over {event} as the event text. When blank, a default text is used.', false, false),
    ],
    tagTypes: [{ name: 'datadog', description: 'All Datadog tags added to a specific feature are sent to datadog event stream.', icon: 'D' }],
    events: [...FEATURE_EVENTS, 'feature-environment-variants-updated'],
  },
];

/** By name (a Map: a provider name comes from the user). */
export const PROVIDER_BY_NAME: ReadonlyMap<string, AddonDefinition> = new Map(PROVIDERS.map((p) => [p.name, p]));

/** What every read shows instead of a sensitive parameter's value. */
export const MASK = '*****';
