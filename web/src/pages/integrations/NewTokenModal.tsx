import '@mantine/dates/styles.css';
import { Alert, Code, MultiSelect, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormModal } from '../../components/form/FormModal';
import { SecretField } from '../../components/SecretField';
import { useCreateApiToken, useScopes } from '../../data/integrations';
import { TOKEN_TYPE_LABELS, tokenDraftProblems, tokenInput, tokenUsage, type TokenDraft, type TokenType } from '../../logic/token-form';
import { ShownOnceModal } from '../access/ShownOnceModal';
import { ExpiryPicker } from './ExpiryPicker';

interface NewTokenModalProps {
  onClose(): void;
  /** The types the user may create (at least one, or the modal is not offered). */
  types: TokenType[];
  /** The service's address, for the usage note. */
  origin: string;
}

/** The draft as the form's values (a type alias: the form takes records). */
type TokenValues = { [K in keyof TokenDraft]: TokenDraft[K] };

/** Where the new token goes: the SDK, the setting and an example, so the secret is put to use right away. */
export function TokenUsageNote({ type, origin, secret }: { type: TokenType; origin: string; secret?: string }) {
  const usage = tokenUsage(type, origin, secret);
  return (
    <Alert color="blue" title="Where it goes" variant="light">
      <Text size="sm">
        For {usage.sdk}: put it in <strong>{usage.setting}</strong>. It opens <Code>{usage.endpoint}</Code>.
      </Text>
      <Code block mt="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{usage.example}</Code>
    </Alert>
  );
}

/**
 * "New API token": name, type, projects, environment and expiry → createApiToken; then the secret, once, to copy.
 * Mounted while open. What is wrong is said at the first "Create", under each field.
 */
export function NewTokenModal({ onClose, types, origin }: NewTokenModalProps) {
  const scopes = useScopes();
  const create = useCreateApiToken();
  // A type the user may no longer create (permissions changed) falls back to the first offered.
  const effective = (draft: TokenValues): TokenDraft => ({ ...draft, type: types.includes(draft.type) ? draft.type : types[0]! });
  const form = useForm<TokenValues>({
    initialValues: { name: '', type: types[0] ?? 'client', projects: [], environment: 'development', expiresAt: '' },
    validate: (values) => ({ ...tokenDraftProblems(effective(values)) }),
  });
  const { type } = effective(form.values);
  const created = create.data?.createApiToken;
  if (created?.secret) {
    return (
      <ShownOnceModal title="New API token" onClose={onClose}>
        <Text size="sm">Token <strong>{created.tokenName}</strong> was created.</Text>
        <SecretField value={created.secret} />
        <TokenUsageNote type={created.type as TokenType} origin={origin} secret={created.secret} />
      </ShownOnceModal>
    );
  }

  return (
    <FormModal title="New API token" size="lg" form={form} mutation={create} submitLabel="Create" onClose={onClose}
      onSubmit={(v) => create.mutate(tokenInput(effective(v)))}>
      <TextInput label="Name" required data-autofocus maxLength={200} description="Say what uses it, for example the service or app's name."
        {...form.getInputProps('name')} />
      <Radio.Group label="Type" required {...form.getInputProps('type')} value={type}>
        <Stack gap="xs" mt="xs">
          {types.map((t) => <Radio key={t} value={t} label={TOKEN_TYPE_LABELS[t]} />)}
        </Stack>
      </Radio.Group>
      {type !== 'admin' && (
        <>
          <MultiSelect label="Projects" description="Leave empty for every project, now and future." placeholder={form.values.projects.length ? undefined : 'All projects'}
            data={scopes.projects} searchable clearable clearButtonProps={{ 'aria-label': 'Clear projects' }} {...form.getInputProps('projects')} />
          <Select label="Environment" required data={scopes.environments} allowDeselect={false} {...form.getInputProps('environment')}
            value={form.values.environment || null} />
        </>
      )}
      {type === 'admin' && <Text size="sm" c="dimmed">An admin token reads and changes every project and environment, with full admin rights.</Text>}
      <ExpiryPicker label="Expires" description="Optional; your local time. Leave empty for a token that never expires." placeholder="Never"
        minDate={new Date()} clearable clearButtonProps={{ 'aria-label': 'Clear expiry' }} {...form.getInputProps('expiresAt')} />
      <TokenUsageNote type={type} origin={origin} />
      <ErrorNotice error={scopes.error} title="The projects and environments could not be read" />
    </FormModal>
  );
}
