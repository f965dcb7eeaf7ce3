import { Button, Card, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { changeRequestsKey } from './drafts';
import { ChangeRequestPageComment, type Request } from './requestQueries';

/** The request's discussion, oldest first, and a comment box (anyone who may read the project may comment). */
export function RequestComments({ request }: { request: Request }) {
  const client = useQueryClient();
  const [text, setText] = useState('');
  const add = useMutation({
    mutationFn: () => gql(ChangeRequestPageComment, { input: { project: request.project, id: request.id, text: text.trim() } }),
    onSuccess: () => {
      setText('');
      void client.invalidateQueries({ queryKey: changeRequestsKey(request.project) });
    },
  });
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="comments-heading">
      <Title order={2} size="h3" id="comments-heading" mb="xs">Comments</Title>
      <Stack gap="xs">
        {request.comments.length === 0 && <Text size="sm" c="dimmed">No comments yet.</Text>}
        {request.comments.map((c) => (
          <Paper key={c.id} withBorder p="xs" radius="sm" component="article" aria-label={`Comment by ${c.createdBy.username ?? 'someone'}`}>
            <Text size="xs" c="dimmed">{c.createdBy.username ?? 'someone'} · {new Date(c.createdAt).toLocaleString()}</Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{c.text}</Text>
          </Paper>
        ))}
        <form onSubmit={(e) => { e.preventDefault(); if (text.trim()) add.mutate(); }}>
          <Textarea label="New comment" value={text} onChange={(e) => setText(e.currentTarget.value)} autosize minRows={2} maxLength={10000} />
          <ErrorNotice error={add.error} />
          <Group mt="xs"><Button type="submit" variant="default" disabled={!text.trim()} loading={add.isPending}>Add comment</Button></Group>
        </form>
      </Stack>
    </Card>
  );
}
