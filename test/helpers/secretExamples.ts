/**
 * For each of Skeptic's own secret rules (src/scope/secretRules.ts), texts it must report and texts it must
 * not. The secrets are made up, and put together at run time so this file holds none in one piece.
 */
const j = (...parts: string[]) => parts.join('');

/** 64 characters of base64 a key body could start with, and a few lines of them. */
const BODY_LINE = j('MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun');
const BODY = [
  BODY_LINE,
  j('VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK'),
  j('LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo'),
];
const BEGIN = (kind = 'RSA ') => j('-----BEGIN ', kind, 'PRIVATE KEY-----');
const END = (kind = 'RSA ') => j('-----END ', kind, 'PRIVATE KEY-----');

export interface RuleExamples {
  positive: Array<{ text: string; line: number }>;
  negative: string[];
}

export const SECRET_EXAMPLES: Record<string, RuleExamples> = {
  PrivateKeyBlock: {
    positive: [
      // A PEM block whose body does not parse as a key (cut short): a secret all the same.
      { text: `# key\n${BEGIN('')}\n${BODY_LINE}\n...\n${END('')}\n`, line: 2 },
      // One literal per line, as Python code holds a key.
      {
        text: `KEY = (\n    "${BEGIN()}\\n"\n${BODY.map((l) => `    "${l}\\n"\n`).join('')}    "${END()}\\n"\n)\n`,
        line: 2,
      },
      // Escaped newlines in one string.
      { text: `const k = "${BEGIN('EC ')}\\n${BODY.join('\\n')}\\n${END('EC ')}";\n`, line: 1 },
      // Concatenated with +, as Java and JavaScript do.
      { text: `String k =\n  "${BEGIN('')}\\n" +\n  "${BODY_LINE}\\n" +\n  "${END('')}";\n`, line: 2 },
      // An encrypted PEM key, with its header lines.
      {
        text: `${BEGIN()}\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n${BODY.join('\n')}\n${END()}\n`,
        line: 1,
      },
      {
        text: `${j('-----BEGIN OPENSSH ', 'PRIVATE KEY-----')}\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n`,
        line: 1,
      },
    ],
    negative: [
      // A parser's constants: the header alone, no body.
      `const HEADER = "${BEGIN('')}";\nconst FOOTER = "${END('')}";\nexport function isPem(s: string) { return s.startsWith(HEADER); }\n`,
      // Documentation with a placeholder body.
      `Paste your key:\n\n    ${BEGIN()}\n    ...\n    ${END()}\n`,
      `${BEGIN('')}\n<your key here>\n${END('')}\n`,
    ],
  },
  CredentialAssignment: {
    positive: [
      { text: `import os\n\ndb_password = "Tr0ub4dor&3"\n`, line: 3 },
      { text: `const config = {\n  apiKey: 'a8f5f167f44f4964e6c998dee827110c',\n};\n`, line: 2 },
      { text: `{\n  "client_secret": "q7Zx-2Kp9LmN4vR8"\n}\n`, line: 2 },
      { text: `<connection password="Sup3rS3cret!" />\n`, line: 1 },
      { text: `# deploy\nexport GITHUB_TOKEN=9f8e7d6c5b4a39281706f5e4d3c2b1a0\n`, line: 2 },
      { text: `FROM node:20\nENV NPM_TOKEN 0a1b2c3d4e5f67890a1b2c3d4e5f6789\n`, line: 2 },
      { text: `password := "hunter2"\n`, line: 1 },
    ],
    negative: [
      `password = ""\ntoken = None\n`,
      `password = "changeme"\napi_key = "your-api-key"\nsecret = "<secret>"\ntoken = "\${TOKEN}"\n`,
      `export const labels = { password: "Password", token: "Bearer" };\n`,
      `const msg = { password: "Enter your password" };\n`,
      `token = os.environ["GITHUB_TOKEN"]\nsecret = "GITHUB_TOKEN"\nkey_secret = "client_secret"\n`,
      `passwordHint = "x9y8z7w6"\ntokenUrl = "https://example.com/oauth/token"\n`,
      `if (password == "") return;\nconst token = getToken();\nSECRET_KEY=\${SECRET_KEY}\n`,
      `secret_file = "/run/secrets/db_password"\n`,
    ],
  },
  AwsKeyPair: {
    positive: [
      {
        text: `ID = "${j('AKIA', 'Q3EGRIZ7XK5TNV2B')}"\nKEY = "${j('wJalrXUtnFEMI/K7MDENG/bPxRfiCY', 'zQ8pL3vN1k')}"\n`,
        line: 1,
      },
      {
        text: `creds:\n  user: ${j('AKIA', 'Q3EGRIZ7XK5TNV2B')}\n  pass: ${j('wJalrXUtnFEMI/K7MDENG/bPxRfiCY', 'zQ8pL3vN1k')}\n`,
        line: 2,
      },
    ],
    negative: [
      // AWS's documentation pair.
      `ID = "${j('AKIA', 'IOSFODNN7EXAMPLE')}"\nKEY = "${j('wJalrXUtnFEMI/K7MDENG/bPxRfiCY', 'EXAMPLEKEY')}"\n`,
      // An id alone, beside a hash.
      `ID = "${j('AKIA', 'Q3EGRIZ7XK5TNV2B')}"\nsha1 = "da39a3ee5e6b4b0d3255bfef95601890afd80709"\n`,
    ],
  },
  StripeKey: {
    positive: [{ text: `stripe = Stripe("${j('sk_', 'live_', '51H8xYzAbCdEfGhIjKlMnOpQr')}")\n`, line: 1 }],
    negative: [`// keys look like sk_live_…\nconst prefix = "sk_live_";\n`],
  },
  StripeWebhookSecret: {
    positive: [{ text: `hook = "${j('whsec_', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')}"\n`, line: 1 }],
    negative: [`// the signing secret starts with whsec_\n`],
  },
  OpenAIKey: {
    positive: [{ text: `\nOPENAI = "${j('sk-', 'proj-', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z')}"\n`, line: 2 }],
    negative: [`// project keys start with sk-proj- and are secret\n`],
  },
  AnthropicKey: {
    positive: [{ text: `key = "${j('sk-ant-', 'admin01-', 'Zr4mQ8vLp2Xk9Ws7Tn3Yb6Hc')}"\n`, line: 1 }],
    negative: [`// set ANTHROPIC_API_KEY=sk-ant-…\n`],
  },
  GoogleApiKey: {
    positive: [{ text: `maps.key = '${j('AIza', 'SyD3x4mPl3K3yV4lu3F0rT3st1ng12345ab')}';\n`, line: 1 }],
    negative: [`// a Maps key starts with AIza and is 39 characters long\nconst p = "AIza";\n`],
  },
  GoogleOAuthSecret: {
    positive: [{ text: `secret: ${j('GOCSPX-', '1a2B3c4D5e6F7g8H9i0J1k2L3m4N')}\n`, line: 1 }],
    negative: [`// client secrets start with GOCSPX-\n`],
  },
  JsonWebToken: {
    positive: [
      {
        text: `const t =\n  "${j('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', '.', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U')}";\n`,
        line: 2,
      },
    ],
    negative: [
      `// a JWT is three parts: eyJ….eyJ….signature\nconst header = "eyJhbGciOiJIUzI1NiJ9";\n`,
      `${'eyJ'.repeat(20_000)}\n`,
    ],
  },
  GitLabToken: {
    positive: [{ text: `GITLAB = "${j('glpat-', 'xK8mN2pQ4rS6tU8vW0yZ')}"\n`, line: 1 }],
    negative: [`// personal access tokens start with glpat-\n`],
  },
  HuggingFaceToken: {
    positive: [{ text: `login("${j('hf_', 'aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH')}")\n`, line: 1 }],
    negative: [`// tokens start with hf_\nmodel = "hf_model"\n`],
  },
  PyPIToken: {
    positive: [
      { text: `password = ${j('pypi-AgE', 'IcHlwaS5vcmcCJDU0YjE2ZDFlLTU0ZTItNDhkMC1iYTc5LTNlNGQyYjI4')}\n`, line: 1 },
    ],
    negative: [`# upload tokens start with pypi-AgE\n`],
  },
  DigitalOceanToken: {
    positive: [{ text: `DO = "${j('dop_v1_', 'a'.repeat(32), '0123456789abcdef'.repeat(2))}"\n`, line: 1 }],
    negative: [`// tokens look like dop_v1_…\n`],
  },
  AzureStorageKey: {
    positive: [
      {
        text: `conn = "DefaultEndpointsProtocol=https;AccountName=acct;${j('AccountKey=', 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==')}"\n`,
        line: 1,
      },
    ],
    negative: [`conn = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=<key>"\n`],
  },
  SquareToken: {
    positive: [{ text: `SQUARE = "${j('sq0atp-', 'Ab3dEf6hIj9kLm2nOp5qRs')}"\n`, line: 1 }],
    negative: [`// access tokens start with sq0atp-\n`],
  },
  TwilioApiKey: {
    positive: [{ text: `sid = "${j('SK', '0123456789abcdef0123456789abcdef')}"\n`, line: 1 }],
    negative: [`// API key SIDs start with SK\nconst SKIP = 1;\n`],
  },
  PostmanKey: {
    positive: [
      { text: `k = "${j('PMAK-', '0123456789abcdef01234567', '-', '0123456789abcdef0123456789abcdef01')}"\n`, line: 1 },
    ],
    negative: [`// Postman keys start with PMAK-\n`],
  },
};
