import { notifications } from '@mantine/notifications';

/**
 * A change request's success notice: a title (which request) over a line (what became of it), as these notices always
 * looked. `useAppMutation`'s `done` gives a message alone (green, no title), which would change their text and look.
 */
export function notifyRequest(title: string, message: string): void {
  notifications.show({ title, message });
}
