import { useEffect } from 'react';

export const PRODUCT_NAME = 'Tradecraft';

/** A tab's title: "Scenarios · Tradecraft", or the product's name alone. */
export function pageTitle(name?: string | null): string {
  const trimmed = name?.trim();
  return trimmed ? `${trimmed} · ${PRODUCT_NAME}` : PRODUCT_NAME;
}

/**
 * Names the page after what it shows once that is known (a scenario's name). Until then, and on every other
 * page, the route's own title stands (app/page-titles.ts sets it on each navigation).
 */
export function usePageTitle(name: string | null | undefined): void {
  useEffect(() => {
    if (name?.trim()) document.title = pageTitle(name);
  }, [name]);
}
