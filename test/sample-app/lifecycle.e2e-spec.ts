import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';
import request from 'supertest';
import { createCatalogApp } from '../../sample-app/create-catalog-app.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Runs `node scripts/start.mjs` (what `npm start` runs) and collects its output. */
function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const { MONGO_URL: _ignored, NODE_OPTIONS: _jest, ...inherited } = process.env;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...inherited, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

/** Resolves with the first match of `pattern` in what `run` printed, checked on each chunk it prints. */
function waitFor(run: ReturnType<typeof start>, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error, match?: RegExpMatchArray) => {
      clearTimeout(timer);
      run.child.stdout!.off('data', check);
      run.child.off('exit', exited);
      if (error) reject(error);
      else resolve(match!);
    };
    const check = () => {
      const match = run.output().match(pattern);
      if (match) done(undefined, match);
    };
    const exited = () => done(new Error(`exited before ${pattern}; output:\n${run.output()}`));
    const timer = setTimeout(
      () => done(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${run.output()}`)),
      timeoutMs,
    );
    run.child.stdout!.on('data', check);
    run.child.once('exit', exited);
    check();
  });
}

describe('catalog lifecycle', () => {
  describe('npm start (scripts/start.mjs → sample-app/main.ts)', () => {
    let run: ReturnType<typeof start> | undefined;
    afterEach(() => {
      if (run?.child.exitCode === null) run.child.kill('SIGKILL');
    });

    it('should serve within 15 s on the embedded database, log what it runs on, and stop cleanly on SIGTERM', async () => {
      const started = Date.now();
      run = start({ PORT: '0' });
      const [, url] = await waitFor(run, /Ready in \d+ ms: (http:\/\/localhost:\d+)/, 15_000);
      expect(Date.now() - started).toBeLessThan(15_000);
      const [first, second] = run
        .output()
        .split('\n')
        .filter((line) => line.includes('[Catalog]'));
      expect(first).toMatch(
        /Database: embedded in-memory MongoDB at mongodb:\/\/127\.0\.0\.1:\d+\/\?directConnection=true — data lives in memory and is lost on exit/,
      );
      expect(second).toContain('HTTP: express on port 0; API docs at');

      await request(url!)
        .get('/health')
        .expect(200, { status: 'ok', dependencies: { database: 'up' } });
      await request(url!).post('/categories').send({ name: 'Smoke' }).expect(201);

      run.child.kill('SIGTERM'); // start.mjs forwards it to the app process
      // Nest re-raises the signal after shutdown, and start.mjs dies of it too: no exit code.
      expect(await run.exited).toBe(null);
      expect(run.output()).toContain('SIGTERM: HTTP server, mongoose connection and database closed');
      await expect(request(url!).get('/health')).rejects.toThrow(/ECONNREFUSED/);
    }, 30_000);

    it('should exit with a hint when MONGO_URL points nowhere', async () => {
      run = start({ PORT: '0', MONGO_URL: 'mongodb://user:secret@127.0.0.1:1/catalog' });
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain(
        'Could not start: MongoDB at mongodb://127.0.0.1:1/catalog does not answer (connect ECONNREFUSED 127.0.0.1:1). ' +
          'With MONGO_URL set, check that MongoDB runs there; unset it to use the embedded in-memory server.',
      );
      expect(run.output()).not.toContain('secret');
      expect(run.output()).not.toContain('    at '); // one line, no stack trace
    }, 30_000);
  });

  describe('app.close()', () => {
    it('should close HTTP, then the mongoose connection, then run onShutdown', async () => {
      const server = await EmbeddedMongoServer.start();
      const order: string[] = [];
      const app = await createCatalogApp({
        mongoUri: server.uri,
        logger: false,
        onShutdown: async () => {
          order.push(`onShutdown (connection readyState ${connection.readyState})`);
          await server.stop();
        },
      });
      const connection = app.get<Connection>(getConnectionToken());
      await app.listen(0, '127.0.0.1');
      const url = await app.getUrl();
      await request(url).get('/health').expect(200);
      connection.on('close', () => order.push('connection closed'));

      await app.close();
      expect(order).toEqual(['connection closed', 'onShutdown (connection readyState 0)']);
      expect(server.listening).toBe(false);
      await expect(request(url).get('/health')).rejects.toThrow(/ECONNREFUSED/);
    });
  });
});
