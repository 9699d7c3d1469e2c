/** Signs in through the API; returns the Cookie header value and the user's id. */
export async function signInApi(
  baseUrl: string,
  account: { email: string; password: string },
): Promise<{ cookie: string; userId: string }> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify(account),
  });
  if (!response.ok) throw new Error(`sign-in of ${account.email} failed: ${response.status} ${await response.text()}`);
  const setCookie = response.headers.getSetCookie().find((value) => value.startsWith('tc_session='));
  if (!setCookie) throw new Error('sign-in set no session cookie');
  const { user } = (await response.json()) as { user: { id: string } };
  return { cookie: setCookie.split(';')[0]!, userId: user.id };
}
