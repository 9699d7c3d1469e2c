import type { ScrollAreaProps } from '@mantine/core';

/** A table that scrolls sideways on a phone must take keyboard focus, so a keyboard can scroll it too. */
export function focusableScroll(label: string): ScrollAreaProps {
  return { viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } };
}
