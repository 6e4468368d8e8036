/**
 * The floor under `skeptic review`'s start (bench/startup.ts): a program that does nothing but load the Anthropic SDK
 * and send one request, the way the CLI's bundle is built (minified, started through V8's code cache). Whatever
 * the review's first request costs beyond this is Skeptic's own start.
 */
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY, baseURL: process.env.ANTHROPIC_BASE_URL });
client.messages
  .create({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'floor' }] })
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
