import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface DownloadButtonProps {
  /** The server's export URL; null while the export cannot be made yet (the button is then disabled). */
  href: string | null;
  /** The name the browser saves the file under. */
  filename: string;
  children: ReactNode;
  variant?: 'filled' | 'default';
  /** The id of the text saying why the button is disabled. */
  describedBy?: string;
}

/**
 * Every CSV/XLSX export is a plain link to a server route: the browser sends the session cookie, streams the
 * file to disk and shows its own progress, and nothing is held in memory on the page.
 */
export function DownloadButton({ href, filename, children, variant = 'filled', describedBy }: DownloadButtonProps) {
  const icon = <IconDownload size={16} aria-hidden />;
  if (href === null) {
    return (
      <Button disabled variant={variant} leftSection={icon} aria-describedby={describedBy}>
        {children}
      </Button>
    );
  }
  return (
    <Button component="a" href={href} download={filename} variant={variant} leftSection={icon}>
      {children}
    </Button>
  );
}
