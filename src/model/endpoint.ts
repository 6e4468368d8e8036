/**
 * What an endpoint address may be, and how it is shown. Credentials in the address itself (`user:pass@`) are
 * refused before any call (fetch cannot send such a URL, and every place that shows the endpoint would print
 * them); values in its query (a gateway's `?key=…`) are kept for the calls but never shown.
 */

/** Why `url` (set by `from`) cannot be an endpoint, in one line that never quotes it; undefined when it can. */
export function endpointProblem(url: string, from: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${from} is not a URL: give the endpoint as http(s)://host[:port][/path]`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${from} must be an http or https URL, not ${parsed.protocol.replace(/:$/, '')}`;
  if (parsed.username || parsed.password)
    return `${from} carries credentials in the address (user:password@host), which are never sent nor shown: remove them and give the key in ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN`;
  return undefined;
}

/** `url` as it may be shown: no user info, every query value replaced. An address that is not a URL is shown by that fact only. */
export function shownEndpoint(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(an address that is not a URL)';
  }
  // Nothing to hide: shown as written (the URL class would add a trailing slash).
  if (!parsed.username && !parsed.password && !parsed.search) return url;
  parsed.username = '';
  parsed.password = '';
  for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, '[redacted]');
  return parsed.toString().replaceAll('%5Bredacted%5D', '[redacted]');
}

/** The secrets an address carries (user info, query values), for redact() to remove from any message. */
export function endpointSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [parsed.username, parsed.password, ...parsed.searchParams.values()]
      .map(decodeURIComponent)
      .filter((s) => s.length > 0);
  } catch {
    return [];
  }
}

/**
 * An endpoint as the SDKs take it: the address without its query, which goes in `defaultQuery` so that every
 * request carries it (a gateway's `?api-version=…`). The SDK appends each path to the base URL as text, so a
 * query left in it would end up before the path (`/gateway?api-version=1/v1/messages`). `url` has passed
 * endpointProblem; a key given twice keeps its last value.
 */
export function sdkEndpoint(url: string): { baseURL: string; defaultQuery?: Record<string, string> } {
  const parsed = new URL(url);
  if (!parsed.search && !parsed.hash) return { baseURL: url };
  const defaultQuery = Object.fromEntries(parsed.searchParams);
  parsed.search = '';
  parsed.hash = '';
  return { baseURL: parsed.toString(), ...(Object.keys(defaultQuery).length ? { defaultQuery } : {}) };
}

/** An AWS or Google Cloud region name (us-east-1, us-east5, europe-west4, global): letters, digits and dashes. */
export const REGION = /^[a-z]{2,}(?:-[a-z0-9]+)*$/;
/** A Google Cloud project id, optionally domain-scoped (example.com:my-project): one path segment, nothing more. */
export const PROJECT = /^(?:[a-z0-9.-]+:)?[a-z][a-z0-9-]*$/;
