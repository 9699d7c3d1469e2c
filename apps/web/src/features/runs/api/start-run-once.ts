/**
 * One request per key while it is in flight: React's StrictMode double effect and re-renders of the same visit
 * share the first request instead of starting a second run. A settled request is forgotten, so the map holds
 * only the starts in flight (never one entry per visit for the life of the tab).
 */
export function createStartOnce<T>() {
  const inFlight = new Map<string, Promise<T>>();
  return {
    start(key: string, begin: () => Promise<T>): Promise<T> {
      const pending = inFlight.get(key);
      if (pending) return pending;
      const request = begin();
      inFlight.set(key, request);
      const forget = () => {
        inFlight.delete(key);
      };
      request.then(forget, forget);
      return request;
    },
    get size() {
      return inFlight.size;
    },
  };
}
