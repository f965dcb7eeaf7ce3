import { Text, Title } from '@mantine/core';

/** Placeholder until this page is built (issue 29). */
export default function ApplicationPage() {
  return (
    <>
      <Title order={1}>Application</Title>
      <Text c="dimmed">This page is being built.</Text>
    </>
  );
}
