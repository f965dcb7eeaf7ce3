import { Anchor, Title, Text } from '@mantine/core';
import { Link } from 'react-router';
import { href } from '../routing/links';

export default function NotFoundPage() {
  return (
    <>
      <Title order={1} mb="md">Page not found</Title>
      <Text mb="md">There is no page at this address.</Text>
      <Anchor component={Link} to={href('projects')}>Back to the projects</Anchor>
    </>
  );
}
