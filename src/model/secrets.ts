/** Files that may hold credentials: never sent to a model, never readable by a sub-agent tool. */
import { basename } from 'node:path';

const SECRET_NAMES = [
  // dotenv files however named: .env, .env.local, prod.env, .envrc (direnv)
  /^\.env(\..*)?$/i,
  /\.env$/i,
  /^\.envrc$/i,
  /\.(pem|key|p12|pfx|jks|keystore|asc|gpg|kdbx|ovpn|tfvars|tfstate)$/i,
  // SSH keys of every type, security-key ones (id_ed25519_sk) and the public halves included
  /^id_[a-z0-9_]+(\.pub)?$/i,
  // Data files only: a `secrets.ts` module is code, not a secret.
  /^(credentials|secrets?)(\.(json|ya?ml|toml|ini|env|txt|xml|properties|conf|cfg))?$/i,
  /^\.(netrc|npmrc|pypirc|htpasswd|pgpass|git-credentials|dockercfg|boto|s3cfg|my\.cnf)$/i,
  /^_netrc$/i,
  /^service[-_]account.*\.json$/i,
];

/** `.env.example` and friends document variables and hold no secret. */
const TEMPLATE = /\.(example|sample|template|dist)$/i;

export function isSecretFile(path: string): boolean {
  const name = basename(path);
  return !TEMPLATE.test(name) && SECRET_NAMES.some((re) => re.test(name));
}
