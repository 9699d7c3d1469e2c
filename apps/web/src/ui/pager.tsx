import { PAGE_WINDOW, pageWindow } from '@tradecraft/shared';
import { Button, Group } from '@mantine/core';

export interface PagerProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  onChange(page: number): void;
  /** The accessible name of the pager's navigation landmark. */
  label?: string;
  windowSize?: number;
}

/**
 * The pager: a window of page numbers (5), with '<<' and '>>' moving a whole window back or forward.
 */
export function Pager({ page, pageCount, onChange, label = 'Pages', windowSize = PAGE_WINDOW }: PagerProps) {
  const window = pageWindow(page, pageCount, windowSize);
  if (pageCount <= 1) return null;
  return (
    <Group component="nav" aria-label={label} gap={4} wrap="wrap">
      <Button
        variant="default"
        size="compact-md"
        miw={36}
        disabled={window.previousWindowPage === null}
        onClick={() => window.previousWindowPage !== null && onChange(window.previousWindowPage)}
        aria-label={`Previous ${windowSize} pages`}
      >
        {'<<'}
      </Button>
      {window.pages.map((number) => (
        <Button
          key={number}
          variant={number === page ? 'filled' : 'default'}
          size="compact-md"
          miw={36}
          className="tabular-nums"
          aria-label={`Page ${number}`}
          aria-current={number === page ? 'page' : undefined}
          onClick={() => onChange(number)}
        >
          {number}
        </Button>
      ))}
      <Button
        variant="default"
        size="compact-md"
        miw={36}
        disabled={window.nextWindowPage === null}
        onClick={() => window.nextWindowPage !== null && onChange(window.nextWindowPage)}
        aria-label={`Next ${windowSize} pages`}
      >
        {'>>'}
      </Button>
    </Group>
  );
}
