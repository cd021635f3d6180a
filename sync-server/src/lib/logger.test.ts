import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { chooseLogFormat, createStdoutLogger } from './logger.ts';

describe('the log format', () => {
  const npmStart = { setting: undefined, nodeEnv: 'development', fromSource: true, terminal: true };

  test('is readable for npm start on a terminal, JSON lines everywhere else', () => {
    expect(chooseLogFormat(npmStart)).toBe('pretty');
    expect(chooseLogFormat({ ...npmStart, terminal: false })).toBe('json');
    expect(chooseLogFormat({ ...npmStart, nodeEnv: 'production' })).toBe('json');
    // The built bundle (npm run start:prod, a deployment) logs JSON even on a terminal.
    expect(chooseLogFormat({ ...npmStart, fromSource: false })).toBe('json');
  });

  test('LOG_FORMAT decides when set', () => {
    expect(chooseLogFormat({ ...npmStart, setting: 'json' })).toBe('json');
    expect(chooseLogFormat({ ...npmStart, terminal: false, setting: 'pretty' })).toBe('pretty');
  });
});

describe('pretty lines', () => {
  async function lines(log: (logger: Awaited<ReturnType<typeof createStdoutLogger>>) => void) {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const logger = await createStdoutLogger('info', 'pretty', out);
    log(logger);
    logger.flush();
    await new Promise((resolve) => setImmediate(resolve));
    return text.trimEnd().split('\n');
  }

  test('name the time, the level, the request id and the message on one line', async () => {
    const requestId = '5d0f2f5e-8d4e-4b53-9d0e-7c1b1c8f7a11';
    const [request, other] = await lines((logger) => {
      logger.info(
        { requestId, method: 'GET', path: '/api/flights', status: 200, ms: 3.1 },
        'request',
      );
      logger.info({ port: 8080 }, 'listening');
    });
    expect(request).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: /);
    expect(request).toContain(`[${requestId}] GET /api/flights 200 3.1 ms`);
    expect(request).not.toContain('{');
    expect(other).toMatch(/INFO: listening \{"port":8080\}$/);
  });
});
