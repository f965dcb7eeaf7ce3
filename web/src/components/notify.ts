import { notifications } from '@mantine/notifications';

/** A short success message (the theme names its close button; refusals are shown by ErrorNotice, not here). */
export function notifyDone(message: string, autoClose = 4000): void {
  notifications.show({ color: 'green', message, autoClose });
}
