import { Text, Title } from '@mantine/core';

/** Placeholder until this page is built (issue 29). */
export default function ChangeRequestPage() {
  return (
    <>
      <Title order={1}>Change request</Title>
      <Text c="dimmed">This page is being built.</Text>
    </>
  );
}
