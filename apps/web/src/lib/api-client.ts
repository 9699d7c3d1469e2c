import { REAUTHENTICATION_REQUIRED, type ApiError as ApiErrorBody } from '@tradecraft/shared';

/** A failed API call: `message` is the server's readable `error`, ready to show; `code` names a few on purpose. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: ApiErrorBody['issues'] = [],
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Asks the person to confirm it is them (password or code); true once the server took it. */
type ReauthenticationHandler = () => Promise<boolean>;
let reauthenticationHandler: ReauthenticationHandler | null = null;

/**
 * While a screen that changes account security is shown, it answers the server's "confirm it is you" (403 with
 * `code: reauthentication-required`): the request is sent again once the person has confirmed. Returns the undo.
 */
export function setReauthenticationHandler(handler: ReauthenticationHandler): () => void {
  reauthenticationHandler = handler;
  return () => {
    if (reauthenticationHandler === handler) reauthenticationHandler = null;
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function request<T>(method: Method, url: string, body?: unknown, retried = false): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body; // the browser sets the multipart boundary
  } else if (method !== 'GET' && method !== 'DELETE') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body ?? {});
  }
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'Cannot reach the server. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!response.ok) {
    const { error, issues, code } = (data ?? {}) as Partial<ApiErrorBody> & { code?: unknown };
    const known = typeof code === 'string' ? code : undefined;
    if (response.status === 403 && known === REAUTHENTICATION_REQUIRED && !retried && reauthenticationHandler) {
      if (await reauthenticationHandler()) return request<T>(method, url, body, true);
    }
    throw new ApiError(
      response.status,
      typeof error === 'string' && error ? error : `The server answered ${response.status}. Please try again.`,
      issues ?? [],
      known,
    );
  }
  return data as T;
}

export const api = {
  get: <T>(url: string) => request<T>('GET', url),
  post: <T>(url: string, body?: unknown) => request<T>('POST', url, body),
  put: <T>(url: string, body?: unknown) => request<T>('PUT', url, body),
  patch: <T>(url: string, body?: unknown) => request<T>('PATCH', url, body),
  delete: <T>(url: string) => request<T>('DELETE', url),
};

/** A URL with its query string, leaving out empty values. */
export function withQuery(url: string, query: Record<string, string | number | boolean | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}
