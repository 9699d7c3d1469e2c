// The part of autocannon's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (
      request: AutocannonRequest,
      context: Record<string, unknown>,
    ) => AutocannonRequest | null | undefined;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void;
  }

  interface AutocannonClient extends EventEmitter {
    setRequests(requests: AutocannonRequest[]): void;
    setHeaders(headers: Record<string, string>): void;
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    pipelining?: number;
    requests?: AutocannonRequest[];
    setupClient?: (client: AutocannonClient) => void;
  }

  interface Instance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
  }

  function autocannon(options: AutocannonOptions): Instance;
  export default autocannon;
  export type { AutocannonClient, AutocannonOptions, AutocannonRequest, AutocannonResult, Instance };
}
