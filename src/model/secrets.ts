/** Files that may hold credentials: never sent to a model, never readable by a sub-agent tool. */
import { basename } from 'node:path';

const SECRET_NAMES = [
  /^\.env(\..*)?$/i,
  /\.(pem|key|p12|pfx|jks|keystore|asc|gpg)$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/i,
  // Data files only: a `secrets.ts` module is code, not a secret.
  /^(credentials|secrets?)(\.(json|ya?ml|toml|ini|env|txt|xml|properties|conf|cfg))?$/i,
  /^\.(netrc|npmrc|pypirc|htpasswd)$/i,
  /^service[-_]account.*\.json$/i,
];

/** `.env.example` and friends document variables and hold no secret. */
const TEMPLATE = /\.(example|sample|template|dist)$/i;

export function isSecretFile(path: string): boolean {
  const name = basename(path);
  return !TEMPLATE.test(name) && SECRET_NAMES.some((re) => re.test(name));
}
