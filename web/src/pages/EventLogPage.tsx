import { Title } from '@mantine/core';

// To be built (issue 28).
export default function EventLogPage() {
  return <Title order={1}>EventLogPage</Title>;
}
