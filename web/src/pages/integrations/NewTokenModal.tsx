import '@mantine/dates/styles.css';
import { Alert, Button, Code, Group, Modal, MultiSelect, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { SecretField } from '../../components/SecretField';
import { graphql } from '../../gql';
import { isoToPicker, pickerToIso } from '../../logic/constraints';
import { TOKEN_TYPE_LABELS, tokenDraftProblems, tokenInput, tokenUsage, type TokenDraft, type TokenType } from '../../logic/token-form';
import { useScopes } from './shared';

const CreateTokenMutation = graphql(`
  mutation ApiTokensCreate($input: CreateApiTokenInput!) {
    createApiToken(input: $input) { id tokenName type projects environment secret }
  }
`);

interface NewTokenModalProps {
  opened: boolean;
  onClose(): void;
  /** The types the user may create (at least one, or the modal is not offered). */
  types: TokenType[];
  /** The service's address, for the usage note. */
  origin: string;
}

const fresh = (types: TokenType[]): TokenDraft => ({ name: '', type: types[0] ?? 'client', projects: [], environment: 'development', expiresAt: '' });

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

/** "New API token": name, type, projects, environment and expiry → createApiToken; then the secret, once, to copy. */
export function NewTokenModal({ opened, onClose, types, origin }: NewTokenModalProps) {
  const queryClient = useQueryClient();
  const scopes = useScopes();
  const [draft, setDraft] = useState<TokenDraft>(() => fresh(types));
  const [touched, setTouched] = useState(false);
  const create = useMutation({
    mutationFn: () => gql(CreateTokenMutation, { input: tokenInput(effective) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-tokens'] }),
  });
  const close = () => {
    setDraft(fresh(types));
    setTouched(false);
    create.reset();
    onClose();
  };
  const set = (patch: Partial<TokenDraft>) => setDraft((d) => ({ ...d, ...patch }));
  // A type the user may no longer create (permissions changed) falls back to the first offered.
  const type = types.includes(draft.type) ? draft.type : types[0];
  const effective = { ...draft, type };
  const problems = tokenDraftProblems(effective);
  const created = create.data?.createApiToken;

  return (
    <Modal opened={opened} onClose={close} title="New API token" centered size="lg">
      {created?.secret ? (
        <Stack>
          <Text size="sm">Token <strong>{created.tokenName}</strong> was created.</Text>
          <SecretField value={created.secret} />
          <TokenUsageNote type={created.type as TokenType} origin={origin} secret={created.secret} />
          <Group justify="flex-end"><Button onClick={close}>Done</Button></Group>
        </Stack>
      ) : (
        <form noValidate onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (Object.keys(problems).length === 0) create.mutate();
        }}>
          <Stack>
            <TextInput label="Name" required data-autofocus value={draft.name} maxLength={200}
              description="Say what uses it, for example the service or app's name."
              error={touched && problems.name} onChange={(e) => set({ name: e.currentTarget.value })} />
            <Radio.Group label="Type" required value={type} onChange={(v) => set({ type: v as TokenType })}>
              <Stack gap="xs" mt="xs">
                {types.map((t) => <Radio key={t} value={t} label={TOKEN_TYPE_LABELS[t]} />)}
              </Stack>
            </Radio.Group>
            {type !== 'admin' && (
              <>
                <MultiSelect label="Projects" description="Leave empty for every project, now and future." placeholder={draft.projects.length ? undefined : 'All projects'}
                  data={scopes.projects} value={draft.projects} onChange={(projects) => set({ projects })} searchable clearable
                  clearButtonProps={{ 'aria-label': 'Clear projects' }} />
                <Select label="Environment" required data={scopes.environments} value={draft.environment || null}
                  onChange={(v) => set({ environment: v ?? '' })} error={touched && problems.environment} allowDeselect={false} />
              </>
            )}
            {type === 'admin' && <Text size="sm" c="dimmed">An admin token reads and changes every project and environment, with full admin rights.</Text>}
            <DateTimePicker label="Expires" description="Optional; your local time. Leave empty for a token that never expires."
              placeholder="Never" value={draft.expiresAt ? isoToPicker(draft.expiresAt) : null}
              onChange={(v) => set({ expiresAt: pickerToIso(v) })} valueFormat="YYYY-MM-DD HH:mm" minDate={new Date()}
              error={touched && problems.expiresAt} clearable clearButtonProps={{ 'aria-label': 'Clear expiry' }}
              submitButtonProps={{ 'aria-label': 'Set expiry' }}
              timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes', 'aria-label': 'Time' }}
              nextLabel="Next month" previousLabel="Previous month" />
            <TokenUsageNote type={type} origin={origin} />
            <ErrorNotice error={create.error} />
            <ErrorNotice error={scopes.error} title="The projects and environments could not be read" />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>Cancel</Button>
              <Button type="submit" loading={create.isPending}>Create</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
