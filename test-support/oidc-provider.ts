// A real OpenID Connect provider (oidc-provider, the certified Node implementation) on 127.0.0.1, for the single
// sign-on tests: the server's API tests drive its sign-in pages over HTTP, the browser tests click through them.
// Its development sign-in page accepts any login name with any password; the name picks one of `accounts`.
// The provider runs with oidc-provider's defaults: the only settings are what any client registration needs (the
// client and its redirect URIs, which claims each scope releases, the accounts, a signing key; and, when a test asks,
// the `acr` values it offers, as a deployment with a second factor declares them). So, as OpenID
// Connect Core says, the ID token carries `sub` and the protocol claims while `email`, `groups` and the names come
// from the UserInfo endpoint.
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestIdentity {
  email: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  groups?: string[];
  /**
   * The authentication context the person signs in with at the provider (say `urn:corp:mfa` after a second
   * factor there); the ID token carries it when the client asks with `acr_values`. An account with one signs in
   * through a login step of this file's own, as a deployment's login page does (oidc-provider leaves
   * authentication to the deployment); the others use its development page.
   */
  acr?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Sign-in names the provider knows, each with its claims; tests may add more while it runs. */
  accounts: Map<string, TestIdentity>;
  close(): Promise<void>;
}

export interface TestOidcProviderOptions {
  /**
   * The authentication contexts (`acr` values) the provider says it offers, as a deployment that has a second
   * factor declares them (oidc-provider supports `acr` only for declared values). None by default.
   */
  acrValues?: string[];
}

export async function startOidcProvider(
  redirectUris: string[],
  options: TestOidcProviderOptions = {},
): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestIdentity>();
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'tradecraft';
  const clientSecret = 'a-client-secret-for-tests-only-0123456789';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    // oidc-provider's own list (acr, sid, auth_time, iss, openid) and the claims of the email and profile scopes.
    claims: {
      acr: null,
      sid: null,
      auth_time: null,
      iss: null,
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name', 'groups'],
    },
    ...(options.acrValues ? { acrValues: options.acrValues } : {}),
    // A signing key of its own for each run (the provider's built-in one is for quick starts).
    jwks: {
      keys: [
        { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), use: 'sig' },
      ],
    },
    async findAccount(_context, accountId) {
      const identity = accounts.get(accountId);
      if (!identity) return undefined;
      return {
        accountId,
        async claims() {
          return {
            sub: accountId,
            email: identity.email,
            // Absent unless the test says: a provider that does not vouch for the address sends no email_verified.
            ...(identity.emailVerified === undefined ? {} : { email_verified: identity.emailVerified }),
            given_name: identity.givenName,
            family_name: identity.familyName,
            name: [identity.givenName, identity.familyName].filter(Boolean).join(' ') || undefined,
            ...(identity.groups === undefined ? {} : { groups: identity.groups }),
          };
        },
      };
    },
  });
  const defaultHandler = provider.callback();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const interaction = /^\/interaction\/([\w-]+)$/.exec(request.url ?? '');
    if (request.method !== 'POST' || !interaction) return defaultHandler(request, response);
    finishLogin(provider, accounts, request, response).then(
      (handled) => {
        if (!handled) void defaultHandler(request, response);
      },
      (error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      },
    );
  });
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * The login step for an account with an `acr`: finishes the provider's login prompt with it, as a deployment's
 * own login page does after its second factor. False for any other account or prompt (the provider's
 * development page answers).
 */
async function finishLogin(
  provider: Provider,
  accounts: Map<string, TestIdentity>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const form = new URLSearchParams(body.toString('utf8'));
  const identity = accounts.get(form.get('login') ?? '');
  if (form.get('prompt') === 'login' && identity?.acr) {
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: form.get('login')!, acr: identity.acr } },
      { mergeWithLastSubmission: false },
    );
    return true;
  }
  // The body is read: the provider's own page takes it parsed (oidc-provider reads `req.body` then).
  Object.assign(request, { body: Object.fromEntries(form) });
  return false;
}

/**
 * Plays a person at the provider's pages without a browser: follows the redirects from `authorizationUrl`,
 * signs in as `login` and consents, and returns the address the provider finally sends the browser to (the
 * application's callback with `code` and `state`, or with `error`).
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...value] = pair!.split('=');
      cookies.set(name!.trim(), value.join('='));
    }
  };
  const send = async (url: URL, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    remember(response);
    return response;
  };
  let url = new URL(authorizationUrl);
  const providerOrigin = url.origin;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.origin !== providerOrigin) return url;
    const response = await send(url);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url);
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`The provider answered ${response.status} without a form: ${page.slice(0, 300)}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    const form = new URLSearchParams(
      prompt === 'login' ? { prompt, login, password: 'any' } : { prompt: prompt ?? 'consent' },
    );
    const posted = await send(new URL(action, url), {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (posted.status < 300 || posted.status >= 400)
      throw new Error(`The provider refused the ${prompt} form: ${posted.status}`);
    url = new URL(posted.headers.get('location')!, url);
  }
  throw new Error('Too many redirects at the provider');
}
