import { notifications } from '@mantine/notifications';

/** A success notice: a line, or a title (what was done) over a line (what became of it), and how long it stays. */
export type Notice = string | { title?: string; message: string; autoClose?: number };

/**
 * The one way the UI announces a change that succeeded (the theme names its close button; refusals are shown by
 * ErrorNotice next to what caused them, not here). Data modules pass it as `done` of `useAppMutation`.
 */
export function notifyDone(notice: Notice, autoClose = 4000): void {
  const { title, message, autoClose: stay = autoClose } = typeof notice === 'string' ? { message: notice } : notice;
  notifications.show({ color: 'green', message, autoClose: stay, ...(title ? { title } : {}) });
}
