import { Alert, Button, Checkbox, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormModal } from '../../components/form/FormModal';
import { useArchiveFlag, useCloneFlag, useReviveFlag } from '../../data/flags/edits';
import type { Flag } from '../../data/flags/flag';
import { links } from '../../routing/links';

interface FlagActionsProps {
  flag: Flag;
  mayClone: boolean;
  mayArchive: boolean;
}

/** "Clone" and "Archive" of an active flag, each in a dialog that shows the service's refusal. */
export function FlagActions({ flag, mayClone, mayArchive }: FlagActionsProps) {
  const [cloning, setCloning] = useState(false);
  const archive = useConfirm(useArchiveFlag(flag), {
    title: () => `Archive ${flag.name}`,
    message: () => 'An archived flag is off for every SDK and leaves the project\'s list. It can be revived later.',
    confirmLabel: 'Archive flag',
  });

  if (!mayClone && !mayArchive) return null;
  return (
    <Group gap="xs">
      {mayClone && <Button variant="default" onClick={() => setCloning(true)}>Clone</Button>}
      {mayArchive && <Button variant="light" color="red" onClick={() => archive.ask()}>Archive</Button>}
      {cloning && <CloneForm flag={flag} onClose={() => setCloning(false)} />}
      {archive.dialog}
    </Group>
  );
}

/** A copy of the flag under a new name (its strategies, variants and dependencies, switched off), then its page. */
function CloneForm({ flag, onClose }: { flag: Flag; onClose(): void }) {
  const navigate = useNavigate();
  const clone = useCloneFlag(flag);
  const form = useForm({
    initialValues: { name: `${flag.name}-copy`, replaceGroupId: true },
    validate: { name: (name) => (name.trim() ? null : 'Give the copy a name.') },
  });
  return (
    <FormModal
      title={`Clone ${flag.name}`}
      form={form}
      mutation={clone}
      submitLabel="Clone flag"
      onClose={onClose}
      onSubmit={(values) => clone.mutate({ name: values.name.trim(), replaceGroupId: values.replaceGroupId }, {
        onSuccess: (copy) => { onClose(); navigate(links.flag(copy.project, copy.name)); },
      })}
    >
      <TextInput label="New name" data-autofocus required description="The copy has the same strategies, variants and dependencies, switched off everywhere."
        {...form.getInputProps('name')} />
      <Checkbox label="Replace the group id of gradual rollouts with the new name" {...form.getInputProps('replaceGroupId', { type: 'checkbox' })} />
    </FormModal>
  );
}

/** The notice of an archived flag, with "Revive" for whoever may. */
export function ArchivedNotice({ flag, mayRevive }: { flag: Flag; mayRevive: boolean }) {
  const revive = useReviveFlag(flag);
  return (
    <Alert color="orange" title="This flag is archived" role="status">
      Archived {flag.archivedAt ? new Date(flag.archivedAt).toLocaleString() : ''}. It is off for every SDK and shown read-only; reviving it
      brings it back switched off in every environment.
      {mayRevive && (
        <Group mt="sm"><Button color="orange" size="xs" loading={revive.isPending} onClick={() => revive.mutate()}>Revive</Button></Group>
      )}
      <ErrorNotice error={revive.error} />
    </Alert>
  );
}
