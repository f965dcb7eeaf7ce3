import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../../src/config';
import { spawnService, type ServiceProcess } from '../../support/service-process';

/**
 * The README's five-minute walkthrough, run as written: the section between the walkthrough markers is cut into its
 * shell commands, the service is started the way its first block says (on a data folder of its own, in a child
 * process), and every other command runs in bash with curl, in order, against it. Each curl must answer 2xx, each
 * GraphQL answer must carry no errors, and the results the walkthrough promises (the playground's answers for the
 * two contexts, the event types) must be what the service answers. A wrong path, body or token fails here.
 */
const ROOT = path.resolve(__dirname, '../../..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const FEATURE_EVENTS = ['feature-created', 'feature-strategy-add', 'feature-environment-enabled'];

interface Command {
  /** The command text as the README has it (continuation lines included). */
  text: string;
  /** The comment lines right above it. */
  note: string;
}

/** The ```sh blocks between `<!-- walkthrough:start -->` and `<!-- walkthrough:end -->`. */
function walkthroughBlocks(markdown: string): string[] {
  const start = markdown.indexOf('<!-- walkthrough:start -->');
  const end = markdown.indexOf('<!-- walkthrough:end -->');
  if (start < 0 || end < start) throw new Error('README.md has no walkthrough section between its markers');
  return [...markdown.slice(start, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/**
 * Cuts a block into commands as a shell reads it: a newline ends a command unless it is escaped by a backslash or
 * inside quotes; a `#` that starts a word starts a comment. Comment lines are kept as the next command's note.
 */
function splitCommands(block: string): Command[] {
  const commands: Command[] = [];
  let text = '';
  let note = '';
  let quote: '' | "'" | '"' = '';
  for (let i = 0; i < block.length; i += 1) {
    const ch = block[i]!;
    if (quote === "'") {
      text += ch;
      if (ch === "'") quote = '';
    } else if (quote === '"') {
      text += ch;
      if (ch === '\\') text += block[++i] ?? '';
      else if (ch === '"') quote = '';
    } else if (ch === '\\') {
      text += ch + (block[++i] ?? '');
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      text += ch;
    } else if (ch === '#' && (text === '' || /\s$/.test(text))) {
      const eol = block.indexOf('\n', i);
      const comment = block.slice(i + 1, eol < 0 ? block.length : eol).trim();
      if (text.trim() === '') note += (note ? ' ' : '') + comment;
      i = (eol < 0 ? block.length : eol) - 1;
    } else if (ch === '\n') {
      if (text.trim() !== '') {
        commands.push({ text: text.trim(), note });
        note = '';
      }
      text = '';
    } else {
      text += ch;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in a walkthrough block:\n${block}`);
  if (text.trim() !== '') commands.push({ text: text.trim(), note });
  return commands;
}

interface Ran {
  command: Command;
  status: number;
  body: string;
}

/**
 * Runs one command in bash after the `export` lines seen so far. `curl` is wrapped to fail on a status of 400 or more
 * (--fail-with-body) and to report each status on stderr, so nothing of the README's command line changes.
 */
function runInBash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.TOKEN; // the README's own export has to provide it
  const child = spawn('bash', ['-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const CURL_WRAPPER = `curl() { command curl --silent --show-error --fail-with-body --write-out '%{stderr}HTTP_STATUS %{http_code}\\n' "$@"; }`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-readme-'));
let service: ServiceProcess | undefined;
afterAll(async () => {
  service?.kill('SIGKILL');
  await service?.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe('the README walkthrough', () => {
  const blocks = walkthroughBlocks(README);
  const commands = blocks.flatMap(splitCommands);

  it('starts with `npm start` and an admin token the later commands use, on the default port', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(splitCommands(blocks[0]!).map((c) => c.text)).toEqual([expect.stringMatching(/^(?:[A-Z_]+='[^']*'\s+)*npm start$/)]);
    expect(commands.slice(1).some((c) => /^export TOKEN=/.test(c.text))).toBe(true);
    // The commands name http://localhost:4242; the test service listens elsewhere, so that address is rewritten.
    expect(loadConfig({}).port).toBe(4242);
    for (const c of commands) if (/\bcurl\b/.test(c.text)) expect(c.text).toContain('http://localhost:4242/');
  });

  it('every command answers 2xx with what the README says', async () => {
    const start = commands[0]!.text;
    const startEnv = Object.fromEntries([...start.matchAll(/([A-Z_]+)='([^']*)'/g)].map((m) => [m[1]!, m[2]!]));
    service = await spawnService({ ...startEnv, DATA_DIR: path.join(dir, 'data') });
    const base = `http://localhost:${service.port}`;

    const exports: string[] = [];
    const ran: Ran[] = [];
    for (const command of commands.slice(1)) {
      if (/^export\s/.test(command.text)) {
        exports.push(command.text);
        continue;
      }
      expect(command.text).toMatch(/^curl\s/);
      const line = command.text.replaceAll('http://localhost:4242', base);
      const result = await runInBash(['set -o pipefail', CURL_WRAPPER, ...exports, line].join('\n'));
      const statuses = [...result.stderr.matchAll(/^HTTP_STATUS (\d+)$/gm)].map((m) => Number(m[1]));
      const explain = `${command.text}\n→ exit ${result.code}, stderr ${result.stderr}\n${result.stdout.slice(0, 2000)}`;
      expect({ explain, code: result.code, statuses: statuses.length }).toEqual({ explain, code: 0, statuses: 1 });
      expect({ explain, status: statuses[0]! >= 200 && statuses[0]! < 300 }).toEqual({ explain, status: true });
      ran.push({ command, status: statuses[0]!, body: result.stdout });
    }

    // Each step of the walkthrough is there.
    const texts = ran.map((r) => r.command.text);
    const has = (re: RegExp) => texts.filter((t) => re.test(t)).length;
    expect(has(/\/api\/admin\/projects\s/)).toBe(1);
    expect(has(/\/api\/admin\/context\s/)).toBe(1);
    expect(has(/\/api\/admin\/projects\/checkout\/features\s/)).toBe(1);
    expect(has(/\/environments\/development\/strategies\s/)).toBe(1);
    expect(has(/\/environments\/development\/on$/)).toBe(1);
    expect(has(/\/api\/admin\/playground\s/)).toBe(2);
    expect(has(/\/api\/admin\/events/)).toBe(1);

    // The strategy is a gradual rollout with a constraint.
    const strategy = JSON.parse(ran.find((r) => /\/strategies\s/.test(r.command.text))!.body);
    expect(strategy).toMatchObject({ name: 'flexibleRollout', constraints: [{ contextName: 'plan', operator: 'IN' }] });
    expect(Number(strategy.parameters.rollout)).toBeLessThan(100);

    // The playground: what each comment promises, and one context on, the other off.
    const answers = ran.filter((r) => /\/api\/admin\/playground\s/.test(r.command.text)).map((r) => {
      const promised = /"isEnabled": (true|false)/.exec(r.command.note)?.[1];
      expect({ note: r.command.note, promised }).toEqual({ note: r.command.note, promised: expect.stringMatching(/^(true|false)$/) });
      const features = JSON.parse(r.body).features as Array<{ name: string; isEnabled: boolean }>;
      const flag = features.find((f) => f.name === 'new-checkout');
      expect(flag?.isEnabled).toBe(promised === 'true');
      return flag!.isEnabled;
    });
    expect(answers).toEqual([true, false]);

    // The events: the types the comment lists, newest first, and at least the three steps made.
    const events = ran.find((r) => /\/api\/admin\/events/.test(r.command.text))!;
    const types = (JSON.parse(events.body).events as Array<{ type: string }>).map((e) => e.type);
    const listed = events.command.note.match(/\b[a-z]+(?:-[a-z]+)+\b/g)?.filter((t) => t.startsWith('feature-')) ?? [];
    expect(listed).toEqual(expect.arrayContaining(FEATURE_EVENTS));
    expect(types.slice(0, listed.length)).toEqual(listed);

    // GraphQL: no errors anywhere, and the same answers for the second flag.
    const graphql = ran.filter((r) => /\/graphql\b/.test(r.command.text)).map((r) => JSON.parse(r.body));
    expect(graphql.length).toBeGreaterThanOrEqual(2);
    for (const answer of graphql) expect(answer.errors).toBeUndefined();
    const query = graphql.find((a) => a.data?.pro)!.data;
    const on = (list: Array<{ name: string; isEnabled: boolean }>) => list.find((f) => f.name === 'new-search')?.isEnabled;
    expect([on(query.pro), on(query.free)]).toEqual([true, false]);
    expect(query.feature.events.nodes.map((e: { type: string }) => e.type)).toEqual([...FEATURE_EVENTS].reverse());
  }, 120_000);
});
