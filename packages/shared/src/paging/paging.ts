import { z } from 'zod';

export const PAGE_SIZE = 10;
export const PAGE_WINDOW = 5;
/** What a table's "Rows per page" offers; the server refuses more than the largest (100). */
export const PAGE_SIZE_CHOICES = [PAGE_SIZE, 25, 50, 100] as const;
export const MAX_PAGE_SIZE = 100;

export const sortDirectionSchema = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof sortDirectionSchema>;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
  dir: sortDirectionSchema.default('asc'),
});

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    /**
     * True when the count stopped at `total` and there are more rows (shown as "1,000+"): long lists count only
     * as far as the pager's next pages, so a page costs the same however large the table grows.
     */
    totalIsLowerBound: z.boolean().optional(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

export interface PageWindow {
  /** The page numbers to draw as buttons. */
  pages: number[];
  /** First page of the previous window, or null at the first window ('<<'). */
  previousWindowPage: number | null;
  /** First page of the next window, or null at the last window ('>>'). */
  nextWindowPage: number | null;
}

/** The pager's window: `windowSize` page buttons at a time; '<<' and '>>' move a whole window. */
export function pageWindow(page: number, pageCount: number, windowSize: number = PAGE_WINDOW): PageWindow {
  if (pageCount < 1) return { pages: [], previousWindowPage: null, nextWindowPage: null };
  const current = Math.min(Math.max(1, page), pageCount);
  const windowStart = Math.floor((current - 1) / windowSize) * windowSize + 1;
  const windowEnd = Math.min(windowStart + windowSize - 1, pageCount);
  const pages = Array.from({ length: windowEnd - windowStart + 1 }, (_, index) => windowStart + index);
  return {
    pages,
    previousWindowPage: windowStart > 1 ? windowStart - windowSize : null,
    nextWindowPage: windowEnd < pageCount ? windowEnd + 1 : null,
  };
}

export function pageCount(total: number, pageSize: number = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
