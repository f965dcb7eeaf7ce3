import { Alert, Anchor, Container, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { href } from '../routing/links';

/** What a route shows when its code or data could not be loaded: the reason, and a way back. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <Container component="main" size="sm" py="xl">
      <Title order={1} mb="md">This page could not be shown</Title>
      <Alert color="red" title="Error" mb="md">{message}</Alert>
      <Anchor component={Link} to={href('projects')}>Back to the projects</Anchor>
    </Container>
  );
}
