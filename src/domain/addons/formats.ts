import Mustache from 'mustache';
import type { AuditEvent } from '../events/event.shapes';
import type { OutgoingRequest } from './http-sender';

// Templates come from users: parse them afresh each time instead of keeping every one ever seen in Mustache's cache.
Mustache.templateCache = undefined;

/** What a delivery knows besides the event: the base of feature links and its own id (the idempotency key). */
export interface DeliveryContext {
  publicUrl: string;
  deliveryId: string;
}

type Params = Record<string, unknown>;

const text = (p: Params, name: string): string | undefined => {
  const v = p[name];
  if (v === undefined || v === null || v === '') return undefined;
  return String(v);
};

/** A bodyTemplate's first problem, or undefined when Mustache can parse it (checked when the addon is saved). */
export function templateProblem(template: string): string | undefined {
  try {
    Mustache.parse(template);
    return undefined;
  } catch (err) {
    return (err as Error).message.slice(0, 200);
  }
}

/** The event as webhooks receive it (Unleash's shape: the audit event's fields). */
const eventBody = (e: AuditEvent) => ({
  id: e.id, type: e.type, createdBy: e.createdBy, createdAt: e.createdAt, createdByUserId: e.createdByUserId, data: e.data,
  preData: e.preData, tags: e.tags, featureName: e.featureName, project: e.project, environment: e.environment,
});

/** `customHeaders` parsed as a JSON object of text values; anything else is ignored, as Unleash does. */
function customHeaders(p: Params): Record<string, string> {
  const raw = text(p, 'customHeaders');
  if (raw === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') out[k] = v;
    return out;
  } catch {
    return {};
  }
}

const baseHeaders = (ctx: DeliveryContext) => ({ 'user-agent': 'flagdeck-addons', 'idempotency-key': ctx.deliveryId });

/** How a chat provider marks up the message text. */
interface Markup {
  bold(s: string): string;
  link(url: string, label: string): string;
}

const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const SLACK: Markup = { bold: (s) => `*${slackEscape(s)}*`, link: (url, label) => `<${url}|${slackEscape(label)}>` };
const markdownEscape = (s: string) => s.replace(/([\\`*_[\]()#>])/g, '\\$1');
const MARKDOWN: Markup = { bold: (s) => `**${markdownEscape(s)}**`, link: (url, label) => `[${markdownEscape(label)}](${url})` };

/** The feature's page in the UI, or the feature list when the event names no feature. */
export function featureLink(e: AuditEvent, publicUrl: string): string {
  if (e.featureName && e.project) return `${publicUrl}/projects/${encodeURIComponent(e.project)}/features/${encodeURIComponent(e.featureName)}`;
  return `${publicUrl}/features`;
}

const field = (v: unknown, key: string): string | undefined => {
  if (v === null || typeof v !== 'object') return undefined;
  const x = (v as Record<string, unknown>)[key];
  return typeof x === 'string' || typeof x === 'number' ? String(x) : undefined;
};

/** One sentence naming who did what to which feature, where: the text of the chat providers. */
export function describeEvent(e: AuditEvent, publicUrl: string, m: Markup): string {
  const who = m.bold(e.createdBy);
  const feature = e.featureName ? m.link(featureLink(e, publicUrl), e.featureName) : undefined;
  const env = e.environment ? ` in the ${m.bold(e.environment)} environment` : '';
  const strategy = field(e.data, 'name') ?? field(e.preData, 'name') ?? 'a';
  let sentence: string;
  switch (e.type) {
    case 'feature-created': sentence = `${who} created feature ${feature}`; break;
    case 'feature-updated':
    case 'feature-metadata-updated': sentence = `${who} updated the metadata of ${feature}`; break;
    case 'feature-archived': sentence = `${who} archived feature ${feature}`; break;
    case 'feature-revived': sentence = `${who} revived feature ${feature}`; break;
    case 'feature-stale-on': sentence = `${who} marked ${feature} as stale`; break;
    case 'feature-stale-off': sentence = `${who} marked ${feature} as no longer stale`; break;
    case 'feature-potentially-stale-on': sentence = `${feature} was marked as potentially stale`; break;
    case 'feature-environment-enabled': sentence = `${who} enabled ${feature}${env}`; break;
    case 'feature-environment-disabled': sentence = `${who} disabled ${feature}${env}`; break;
    case 'feature-strategy-add': sentence = `${who} added the ${m.bold(strategy)} strategy to ${feature}${env}`; break;
    case 'feature-strategy-update': sentence = `${who} updated the ${m.bold(strategy)} strategy of ${feature}${env}`; break;
    case 'feature-strategy-remove': sentence = `${who} removed the ${m.bold(strategy)} strategy from ${feature}${env}`; break;
    case 'feature-variants-updated':
    case 'feature-environment-variants-updated': sentence = `${who} updated the variants of ${feature}${env}`; break;
    case 'feature-project-change': sentence = `${who} moved ${feature} from project ${m.bold(field(e.data, 'oldProject') ?? '?')} to ${m.bold(field(e.data, 'newProject') ?? e.project ?? '?')}`; break;
    case 'feature-tagged': sentence = `${who} tagged ${feature} with ${m.bold(`${field(e.data, 'type') ?? ''}:${field(e.data, 'value') ?? ''}`)}`; break;
    case 'feature-untagged': sentence = `${who} removed the tag ${m.bold(`${field(e.preData, 'type') ?? ''}:${field(e.preData, 'value') ?? ''}`)} from ${feature}`; break;
    default: sentence = `${who} triggered ${m.bold(e.type)}${feature ? ` for ${feature}` : ''}${env}`;
  }
  const project = e.project && e.type !== 'feature-project-change' ? ` in project ${m.bold(e.project)}` : '';
  return `${sentence}${project}.`;
}

const tagValues = (e: AuditEvent, type: string) => e.tags.filter((t) => t.type === type).map((t) => t.value);

/** A Mustache template over `{event}`; a template that cannot be rendered fails the attempt with its reason. */
function render(template: string, e: AuditEvent): string {
  try {
    return Mustache.render(template, { event: eventBody(e) });
  } catch (err) {
    throw new Error(`the body template could not be rendered: ${(err as Error).message.slice(0, 200)}`);
  }
}

/**
 * The HTTP requests that deliver one event to one addon (usually one; Slack posts once per channel). Every request
 * carries the delivery id as `Idempotency-Key`, so a receiver can drop a repeat.
 */
export function buildRequests(provider: string, p: Params, e: AuditEvent, ctx: DeliveryContext): OutgoingRequest[] {
  const extra = customHeaders(p);
  switch (provider) {
    case 'webhook': {
      const template = text(p, 'bodyTemplate');
      const headers: Record<string, string> = { ...baseHeaders(ctx), 'content-type': text(p, 'contentType') ?? 'application/json' };
      const authorization = text(p, 'authorization');
      if (authorization) headers.authorization = authorization;
      return [{ url: String(p.url), headers: { ...headers, ...extra }, body: template && template.length > 1 ? render(template, e) : JSON.stringify(eventBody(e)) }];
    }
    case 'slack': {
      const message = describeEvent(e, ctx.publicUrl, SLACK);
      const channels = tagValues(e, 'slack');
      const targets = channels.length > 0 ? channels : [text(p, 'defaultChannel') ?? ''];
      return targets.map((channel) => ({
        url: String(p.url),
        headers: { ...baseHeaders(ctx), 'content-type': 'application/json', ...extra },
        body: JSON.stringify({
          username: text(p, 'username') ?? 'Unleash',
          icon_emoji: text(p, 'emojiIcon') ?? ':unleash:',
          text: message,
          channel: channel.startsWith('#') ? channel : `#${channel}`,
          attachments: [{ actions: [{ name: 'featureToggle', text: 'Open in Unleash', type: 'button', value: 'featureToggle', style: 'primary', url: featureLink(e, ctx.publicUrl) }] }],
        }),
      }));
    }
    case 'teams':
      return [{
        url: String(p.url),
        headers: { ...baseHeaders(ctx), 'content-type': 'application/json', ...extra },
        body: JSON.stringify({
          '@type': 'MessageCard',
          '@context': 'https://schema.org/extensions',
          themeColor: '0076D7',
          summary: 'Message',
          sections: [{
            activityTitle: describeEvent(e, ctx.publicUrl, MARKDOWN),
            activitySubtitle: 'Unleash notification update',
            facts: [{ name: 'User', value: e.createdBy }, { name: 'Action', value: e.type }, ...(e.project ? [{ name: 'Project', value: e.project }] : []), ...(e.environment ? [{ name: 'Environment', value: e.environment }] : [])],
          }],
          potentialAction: [{ '@type': 'OpenUri', name: 'Go to feature', targets: [{ os: 'default', uri: featureLink(e, ctx.publicUrl) }] }],
        }),
      }];
    case 'datadog': {
      const template = text(p, 'bodyTemplate');
      const message = template && template.length > 1 ? render(template, e) : describeEvent(e, ctx.publicUrl, MARKDOWN);
      const tags = [`user:${e.createdBy}`, `action:${e.type}`];
      if (e.featureName) tags.push(`feature:${e.featureName}`);
      if (e.project) tags.push(`project:${e.project}`);
      if (e.environment) tags.push(`environment:${e.environment}`);
      tags.push(...tagValues(e, 'datadog'));
      const sourceTypeName = text(p, 'sourceTypeName');
      return [{
        url: text(p, 'url') ?? 'https://api.datadoghq.com/api/v1/events',
        headers: { ...baseHeaders(ctx), 'content-type': 'application/json', ...extra, 'DD-API-KEY': String(p.apiKey ?? '') },
        body: JSON.stringify({ text: `%%% \n${message}\n %%% `, title: 'Unleash notification update', tags, ...(sourceTypeName ? { source_type_name: sourceTypeName } : {}) }),
      }];
    }
    default:
      throw new Error(`unknown provider ${provider}`);
  }
}
