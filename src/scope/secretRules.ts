/**
 * Skeptic's own secret rules, beside secretlint's recommended preset, for the forms the preset lets through
 * and a tool that promises no secret leaves the machine cannot: any private-key block with a body (whether
 * or not it parses as a key, also written as concatenated string literals or with escaped newlines), generic
 * credential assignments (`password = "…"` with a literal that is not an obvious placeholder), and vendor
 * key formats. They err on the side of not sending. Each rule starts from an anchor (a literal every match
 * contains), so a text without it costs one regex test; every pattern is linear in the text.
 */

export interface SecretRule {
  /** Stable id, shown as the kind of secret ("PrivateKeyBlock on line 3"). */
  id: string;
  /** Text every match contains: a text without it cannot match, and the rule is not run. */
  anchor: RegExp;
  /** Offset of the first match in `text`, or -1. */
  find(text: string): number;
}

/**
 * Bump when a rule is added, removed or changes what it reports: verdicts kept by this version (Step 0's
 * cache) are not reused under another. The preset's version is part of it (secretContent.ts).
 */
export const OWN_RULES_VERSION = 1;

/** The first match of a global regex whose `accept` holds; -1 when none. */
function firstMatch(re: RegExp, text: string, accept: (m: RegExpExecArray) => boolean = () => true): number {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (accept(m)) return m.index;
    if (m[0].length === 0) re.lastIndex++;
  }
  return -1;
}

// ---- Private keys -------------------------------------------------------------------------------------

/** Found at its word BEGIN (a pattern starting with a run of dashes would be quadratic on a line of dashes). */
const KEY_HEADER = /(?<=--\s?)BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?(?:\s?-{2,})?/g;
/**
 * Between the header and the body: whitespace, quotes, escaped newlines, `+` or `,` joining string literals,
 * comment markers, and PEM header lines (`Proc-Type: 4,ENCRYPTED`, `Version: …`).
 */
const GLUE = /(?:\s|\\[nrt]|\\(?=\r?\n)|["'`,;+(#*]|\/\/|[A-Za-z][A-Za-z-]*: [^\n"'\\]*)*/y;
/** A body line: base64 (as PEM and OpenSSH keys are), long enough that it is not a word. */
const BODY = /[A-Za-z0-9+/=]{16,}/y;

/** A `BEGIN … PRIVATE KEY` header followed by base64 with a digit or a `+`/`/` in it: the body of a key. */
function privateKeyBlock(text: string): number {
  return firstMatch(KEY_HEADER, text, (m) => {
    GLUE.lastIndex = m.index + m[0].length;
    GLUE.exec(text);
    BODY.lastIndex = GLUE.lastIndex;
    const body = BODY.exec(text);
    return body !== null && /[0-9+/]/.test(body[0]);
  });
}

// ---- Generic credential assignments --------------------------------------------------------------------

/** Names that end in one of these hold a credential: `password`, `db_password`, `apiKey`, `CLIENT_SECRET`. */
const CREDENTIAL_WORDS =
  'password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key|client[_-]?secret|credentials?';
/** `name = "literal"`, `name: 'literal'`, `"name": "literal"`, `name := "…"`, `'name' => '…'`, `name="…"` (XML). */
const ASSIGNMENT = new RegExp(
  `(${CREDENTIAL_WORDS})["']?\\s{0,8}(?::=|=>|[:=])\\s{0,8}(["'\`])([^"'\`\\n\\\\]{1,400})\\2`,
  'gi',
);
/** `DB_PASSWORD=hunter2`, `export API_TOKEN=…`, `ENV SECRET_KEY …`: unquoted, as in env files, shell and Dockerfiles. */
const ENV_ASSIGNMENT = new RegExp(
  `^[ \\t]*(?:export[ \\t]+|ENV[ \\t]+)?([A-Z0-9_]*(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|SECRET_?KEY|PRIVATE_?KEY|CLIENT_SECRET))[ \\t]*[=: \\t][ \\t]*([^\\s"'$\`#{}()<>;|&]{6,})[ \\t]*$`,
  'gm',
);

/** Values that stand for a credential without being one. */
const PLACEHOLDER =
  /^(?:x+|\*+|\.+|-+|_+|#+|0+|1234\w*|abc\w*|changeme|changeit|null|none|nil|undefined|true|false|todo|tbd|fixme|redacted|removed|hidden|your\W.*|my\W.*|insert\W.*|enter\W.*|replace\W.*)$/i;
/** Words that mark a made-up value wherever they stand in it ("password1", "wJalr…EXAMPLEKEY", "test-secret"). */
const MADE_UP = /password|passwd|secret|token|change_?me|example|sample|dummy|fake|mock|test|placeholder|redacted/i;
const TEMPLATED = /\$\{|\{\{|\}\}|^\$|^%|%[sd(]|<[^>]*>|\[[^\]]*\]|^@|^env[.:]|process\.env|os\.environ|getenv|\.\.\./i;
/** Names that end in a credential word yet name something else: a page cursor, a CSRF nonce, a public key's hash. */
const NOT_A_CREDENTIAL_NAME =
  /(?:next|page|continuation|pagination|cursor|resume|sync|csrf|xsrf|idempotency|request|cancel(?:lation)?|change|update|public[_-]?key)[_-]?token$|^public/i;

/** True for a literal that could be a real credential: not empty, a placeholder, a template, a path or a name. */
export function looksLikeCredential(value: string, name = ''): boolean {
  const v = value.trim();
  if (v.length < 6 || /\s/.test(v)) return false; // a short string or a phrase ("Enter your password")
  if (PLACEHOLDER.test(v) || MADE_UP.test(v) || TEMPLATED.test(v)) return false;
  if (NOT_A_CREDENTIAL_NAME.test(name)) return false;
  if (/^(?:[a-z]+:\/\/|\/|\.\.?\/|~\/)/i.test(v)) return false; // a URL or path says where, not what
  if (/^#[0-9a-f]{3,8}$/i.test(v) || /^(?:0x[0-9a-f]+|\d{1,12})[,;]?$/i.test(v)) return false; // a colour, a number
  // A name, not a value: SOME_VARIABLE, some_field, Some-Header, some.key, a.member.path, SomeType.
  if (/^[A-Za-z]+(?:[-_.][A-Za-z]+)*$/.test(v)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[\w$]+)+$/.test(v) && !/\d/.test(v)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(v)).length;
  // A digit among letters, or three kinds of character: a password or a key, rarely a word.
  return /[0-9]/.test(v) ? classes >= 2 : classes >= 3;
}

/** The whole name a credential word ends: `db_password` for the `password` found at `at`. */
function nameEndingAt(text: string, at: number, word: string): string {
  let start = at;
  while (start > 0 && at - start < 64 && /[A-Za-z0-9_-]/.test(text[start - 1]!)) start--;
  return text.slice(start, at) + word;
}

function credentialAssignment(text: string): number {
  const quoted = firstMatch(ASSIGNMENT, text, (m) => looksLikeCredential(m[3]!, nameEndingAt(text, m.index, m[1]!)));
  const bare = firstMatch(ENV_ASSIGNMENT, text, (m) => looksLikeCredential(m[2]!, m[1]!));
  return quoted < 0 ? bare : bare < 0 ? quoted : Math.min(quoted, bare);
}

// ---- AWS key pairs under any name ----------------------------------------------------------------------

const AWS_KEY_ID = /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g;
/** A secret access key: 40 characters of base64 with upper case, lower case and a digit, standing alone. */
const AWS_SECRET = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
const NEARBY_CHARS = 600;

/** An access key id with a secret key within a few lines of it, whatever either is called. */
function awsKeyPair(text: string): number {
  return firstMatch(AWS_KEY_ID, text, (m) => {
    if (/EXAMPLE/.test(m[0])) return false;
    const around = text.slice(Math.max(0, m.index - NEARBY_CHARS), m.index + NEARBY_CHARS);
    return (
      firstMatch(
        AWS_SECRET,
        around,
        (s) => /[a-z]/.test(s[0]) && /[A-Z]/.test(s[0]) && /[0-9]/.test(s[0]) && !/EXAMPLE/.test(s[0]),
      ) >= 0
    );
  });
}

// ---- JSON Web Tokens ----------------------------------------------------------------------------------

const URL_SAFE = /[A-Za-z0-9_-]/;

/** Where the run of base64url characters starting at `from` ends. */
function runEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && URL_SAFE.test(text[i]!)) i++;
  return i;
}

/**
 * `eyJ….eyJ….sig`: a header and a payload that are base64 JSON objects, and a signature. Scanned by hand, one
 * run at a time, so a long run of `eyJeyJ…` costs one pass (a regex would try every `eyJ` in it to its end).
 */
function jsonWebToken(text: string): number {
  for (let at = text.indexOf('eyJ'); at >= 0;) {
    const header = runEnd(text, at);
    if (
      !(at > 0 && URL_SAFE.test(text[at - 1]!)) &&
      header - at >= 11 &&
      text[header] === '.' &&
      text.startsWith('eyJ', header + 1)
    ) {
      const payload = runEnd(text, header + 1);
      if (payload - header > 11 && text[payload] === '.' && runEnd(text, payload + 1) - payload > 16) return at;
    }
    at = text.indexOf('eyJ', Math.max(header, at + 1));
  }
  return -1;
}

// ---- Vendor formats ------------------------------------------------------------------------------------

/** A rule that is one pattern: its anchor is the pattern's literal start. */
function vendor(id: string, anchor: RegExp, pattern: RegExp): SecretRule {
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return { id, anchor, find: (text) => firstMatch(re, text) };
}

export const SECRET_RULES: SecretRule[] = [
  { id: 'PrivateKeyBlock', anchor: /PRIVATE KEY/, find: privateKeyBlock },
  { id: 'CredentialAssignment', anchor: new RegExp(CREDENTIAL_WORDS, 'i'), find: credentialAssignment },
  { id: 'AwsKeyPair', anchor: /A(?:KIA|SIA|BIA|CCA)/, find: awsKeyPair },
  vendor('StripeKey', /(?:sk|rk)_(?:live|test)_/, /\b(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{20,}/),
  vendor('StripeWebhookSecret', /whsec_/, /\bwhsec_[0-9a-zA-Z]{24,}/),
  vendor('OpenAIKey', /sk-(?:proj|svcacct|admin)-/, /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/),
  vendor('AnthropicKey', /sk-ant-/, /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}/),
  vendor('GoogleApiKey', /AIza/, /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/),
  vendor('GoogleOAuthSecret', /GOCSPX-/, /\bGOCSPX-[0-9A-Za-z_-]{28}/),
  { id: 'JsonWebToken', anchor: /eyJ/, find: jsonWebToken },
  vendor('GitLabToken', /gl(?:pat|dt|rt|ptt)-/, /\bgl(?:pat|dt|rt|ptt)-[0-9A-Za-z_-]{20,}/),
  vendor('HuggingFaceToken', /hf_/, /\bhf_[A-Za-z0-9]{34,}/),
  vendor('PyPIToken', /pypi-AgE/, /\bpypi-AgE[A-Za-z0-9_-]{50,}/),
  vendor('DigitalOceanToken', /do[opr]_v1_/, /\bdo[opr]_v1_[a-f0-9]{64}/),
  vendor('AzureStorageKey', /AccountKey=/, /AccountKey=[A-Za-z0-9+/]{80,}={0,2}/),
  vendor('SquareToken', /sq0(?:atp|csp)-/, /\bsq0(?:atp|csp)-[0-9A-Za-z_-]{22,}/),
  vendor('TwilioApiKey', /SK/, /\bSK[0-9a-f]{32}\b/),
  vendor('PostmanKey', /PMAK-/, /\bPMAK-[0-9a-f]{24}-[0-9a-f]{34}/),
];

/** The first of Skeptic's own rules that matches: its id and 1-based line, or null. */
export function findOwnSecret(text: string): { kind: string; line: number } | null {
  let first: { kind: string; at: number } | null = null;
  for (const rule of SECRET_RULES) {
    if (!rule.anchor.test(text)) continue;
    const at = rule.find(text);
    if (at >= 0 && (!first || at < first.at)) first = { kind: rule.id, at };
  }
  return first && { kind: first.kind, line: lineAt(text, first.at) };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
