import { Title } from '@mantine/core';

// To be built (issue 28).
export default function ProjectFlagsPage() {
  return <Title order={1}>ProjectFlagsPage</Title>;
}
