import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Waits until no transition or finite animation is running. axe measures colours as drawn, so a dialog still
 * fading in, or a list fading to its dimmed state, would be judged at part of its contrast. Spinners and
 * skeletons loop for ever and are left out, as is anything paused. Each round first lets two frames pass,
 * because a dialog starts its fade a frame or two after it is in the page.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    for (let round = 0; round < 10; round++) {
      await nextFrame();
      await nextFrame();
      const running = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' && Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)),
        );
      if (running.length === 0) return;
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
}

/**
 * The accessibility check every screen must pass: no axe violation of any impact (minor and moderate too), under
 * WCAG 2.1 A and AA and axe's best practices (unique landmarks, heading order, one main landmark).
 */
export async function expectAccessible(page: Page): Promise<void> {
  await settleAnimations(page);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  // Mantine draws overlays (tooltips, popovers, menus) in a portal at the end of the body, outside the landmarks
  // by design; each carries its own role (tooltip, dialog, menu). axe's `region` best practice is kept for
  // everything else.
  const violations = results.violations
    .map((violation) =>
      violation.id === 'region'
        ? { ...violation, nodes: violation.nodes.filter((node) => node.target.join(' ') !== 'div[data-portal="true"]') }
        : violation,
    )
    .filter((violation) => violation.nodes.length > 0);
  expect(
    violations.map(
      (violation) =>
        `${violation.id} (${violation.impact ?? 'no impact'}): ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    ),
  ).toEqual([]);
}
