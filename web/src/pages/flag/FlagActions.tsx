import { Alert, Button, Checkbox, Group, Modal, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FlagPageArchive, FlagPageClone, FlagPageRevive, useFlagMutation, type Flag } from './queries';
import { links } from '../../routing/links';

interface FlagActionsProps {
  flag: Flag;
  mayClone: boolean;
  mayArchive: boolean;
}

/** "Clone" and "Archive" of an active flag, each in a dialog that shows the service's refusal. */
export function FlagActions({ flag, mayClone, mayArchive }: FlagActionsProps) {
  const navigate = useNavigate();
  const [cloning, setCloning] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const [name, setName] = useState('');
  const [replaceGroupId, setReplaceGroupId] = useState(true);

  const clone = useFlagMutation(flag.name, () =>
    gql(FlagPageClone, { input: { project: flag.project, feature: flag.name, name: name.trim(), replaceGroupId } }));
  const archive = useFlagMutation(flag.name, () => gql(FlagPageArchive, { input: { project: flag.project, features: [flag.name] } }));

  const submitClone = (e: React.FormEvent) => {
    e.preventDefault();
    clone.mutate(undefined, {
      onSuccess: (result) => {
        const created = (result as { cloneFeature: { name: string; project: string } }).cloneFeature;
        setCloning(false);
        navigate(links.flag(created.project, created.name));
      },
    });
  };

  if (!mayClone && !mayArchive) return null;
  return (
    <Group gap="xs">
      {mayClone && (
        <Button variant="default" onClick={() => { clone.reset(); setName(`${flag.name}-copy`); setCloning(true); }}>Clone</Button>
      )}
      {mayArchive && (
        <Button variant="light" color="red" onClick={() => { archive.reset(); setArchiving(true); }}>Archive</Button>
      )}
      <Modal opened={cloning} onClose={() => setCloning(false)} title={`Clone ${flag.name}`} centered>
        <form onSubmit={submitClone}>
          <TextInput label="New name" data-autofocus required value={name} onChange={(e) => setName(e.currentTarget.value)}
            description="The copy has the same strategies, variants and dependencies, switched off everywhere." />
          <Checkbox mt="sm" label="Replace the group id of gradual rollouts with the new name" checked={replaceGroupId}
            onChange={(e) => setReplaceGroupId(e.currentTarget.checked)} />
          <ErrorNotice error={clone.error} />
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={() => setCloning(false)}>Cancel</Button>
            <Button type="submit" loading={clone.isPending} disabled={!name.trim()}>Clone flag</Button>
          </Group>
        </form>
      </Modal>
      <ConfirmDialog
        opened={archiving}
        title={`Archive ${flag.name}`}
        message="An archived flag is off for every SDK and leaves the project's list. It can be revived later."
        confirmLabel="Archive flag"
        pending={archive.isPending}
        error={archive.error}
        onClose={() => setArchiving(false)}
        onConfirm={() => archive.mutate(undefined, { onSuccess: () => setArchiving(false) })}
      />
    </Group>
  );
}

/** The notice of an archived flag, with "Revive" for whoever may. */
export function ArchivedNotice({ flag, mayRevive }: { flag: Flag; mayRevive: boolean }) {
  const revive = useFlagMutation(flag.name, () => gql(FlagPageRevive, { input: { project: flag.project, features: [flag.name] } }));
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
