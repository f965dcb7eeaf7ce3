import { Button, Card, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useServerErrors } from '../../components/form/FormModal';
import { useAddComment, type Request } from '../../data/change-requests';

/** The request's discussion, oldest first, and a comment box (anyone who may read the project may comment). */
export function RequestComments({ request }: { request: Request }) {
  const add = useAddComment(request);
  const form = useForm({ initialValues: { text: '' } });
  useServerErrors(form, add.error);
  const blank = !form.values.text.trim();
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
        <form onSubmit={form.onSubmit(({ text }) => { if (text.trim()) add.mutate(text, { onSuccess: () => form.reset() }); })}>
          <Textarea label="New comment" autosize minRows={2} maxLength={10000} {...form.getInputProps('text')} />
          <ErrorNotice error={add.error} />
          <Group mt="xs"><Button type="submit" variant="default" disabled={blank} loading={add.isPending}>Add comment</Button></Group>
        </form>
      </Stack>
    </Card>
  );
}
