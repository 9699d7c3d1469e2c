import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationListQueryKey } from './get-notifications';
import { READY_TIMEOUT_MS, useNotificationStream } from './use-notification-stream';

/** jsdom has no EventSource: this one lets the test say when the server's events arrive. */
class ScriptedEventSource {
  static last: ScriptedEventSource | undefined;
  onerror: (() => void) | null = null;
  private readonly listeners = new Map<string, (() => void)[]>();
  constructor(readonly url: string) {
    ScriptedEventSource.last = this;
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
  close() {}
}

function renderStream() {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
  const hook = renderHook(() => useNotificationStream(true), { wrapper });
  const listRefetches = () =>
    invalidate.mock.calls.filter(([filters]) => filters?.queryKey === notificationListQueryKey).length;
  return { hook, listRefetches, source: ScriptedEventSource.last! };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('EventSource', ScriptedEventSource);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('useNotificationStream', () => {
  it('opens on the first ready without a second fetch of the list, and refetches on each notification', () => {
    const { hook, listRefetches, source } = renderStream();
    expect(hook.result.current).toBe('connecting');
    act(() => source.emit('ready'));
    expect(hook.result.current).toBe('open');
    expect(listRefetches()).toBe(0);
    act(() => source.emit('notification'));
    expect(listRefetches()).toBe(1);
  });

  it('a ready that comes after the list gave up waiting refetches what was notified before it subscribed', () => {
    const { hook, listRefetches, source } = renderStream();
    act(() => vi.advanceTimersByTime(READY_TIMEOUT_MS));
    expect(hook.result.current).toBe('down');
    act(() => source.emit('ready'));
    expect(hook.result.current).toBe('open');
    expect(listRefetches()).toBe(1);
  });

  it('a reconnect after an error refetches', () => {
    const { hook, listRefetches, source } = renderStream();
    act(() => source.emit('ready'));
    act(() => source.onerror?.());
    expect(hook.result.current).toBe('down');
    act(() => source.emit('ready'));
    expect(listRefetches()).toBe(1);
  });
});
