import { notifications } from '@mantine/notifications';

/**
 * A success message of the data pages. Its close button gets a name: Mantine leaves it unnamed, which axe-core
 * reports as a critical violation while the message shows.
 */
export function notifyDone(message: string): void {
  notifications.show({ color: 'green', message, closeButtonProps: { 'aria-label': 'Close message' } });
}
