/**
 * The server the fuzzer talks to, in a child process (see
 * fuzz-server-main.fixture.ts), and the fuzzer's exchanges with it: every
 * request must be answered as fuzz-oracle.fixture.ts requires, or its
 * connection closed for a reason, within HANG_MS; afterwards a ping on a new
 * connection must be answered and the process still be alive. A hang or a
 * crash restarts the child, so that fast-check can go on shrinking.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { Document } from 'bson';

import { encodeOpMsgRequest } from '../wire/op-msg.js';
import { OpCode, OpMsgFlags } from '../wire/wire-constants.js';
import { FUZZ_SESSION_IDS, LAST_CURSOR_ID } from './command-arbitraries.fixture.js';
import { FuzzConnection } from './fuzz-connection.fixture.js';
import { encodeRequest, expectsReply, type FuzzRequest } from './fuzz-frames.fixture.js';
import { checkReply, show } from './fuzz-oracle.fixture.js';

/** Seed and runs, from the same variables as the library's fuzzers (`npm run fuzz` sets FUZZ_RUNS=20000). */
export const FUZZ = {
  seed: Number(process.env.FUZZ_SEED ?? 20261202),
  numRuns: Number(process.env.FUZZ_RUNS ?? 300),
};

/** OP_MSG flag bits the server knows; another one among bits 0-15 makes it refuse the message. */
const KNOWN_FLAGS = OpMsgFlags.checksumPresent | OpMsgFlags.moreToCome;

const isHang = (error: unknown): boolean => /within \d+ ms/.test(String(error));

/** The embedded server in a child process, and the fuzzer's exchanges with it. */
export class FuzzServer {
  private child!: ChildProcess;
  private port = 0;
  private stderr = '';
  private nextRequestId = 1;
  private runs = 0;

  private constructor() {}

  /** Starts the child and waits until it listens. */
  static async start(): Promise<FuzzServer> {
    const server = new FuzzServer();
    await server.spawn();
    return server;
  }

  private async spawn(): Promise<void> {
    const main = fileURLToPath(new URL('./fuzz-server-main.fixture.ts', import.meta.url));
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    this.stderr = '';
    // source-alias runs the server's `*.cts` files as CommonJS, as the build does.
    const loaders = ['--import', '@swc-node/register/esm-register', '--import', './scripts/source-alias.mjs'];
    const child = spawn(process.execPath, [...loaders, main], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-8000)));
    this.port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const ready = /READY (\d+)/.exec(out);
        if (ready) resolve(Number(ready[1]));
      });
      child.once('exit', (code) =>
        reject(new Error(`the fuzzed server exited with ${code} before listening:\n${this.stderr}`)),
      );
    });
  }

  /** Stops the child. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin!.end();
    this.child.kill('SIGKILL');
    await exited;
  }

  /** Whether the child has exited, or does within 200 ms. */
  private async exited(): Promise<boolean> {
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), 200);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Rethrows `error`; after a hang, a crash or when `restart`, first starts a new child (and adds its stderr). */
  private async failed(error: unknown, restart = isHang(error)): Promise<never> {
    const crashed = await this.exited();
    if (!crashed && !restart) throw error;
    const stderr = this.stderr;
    await this.stop();
    await this.spawn();
    const why = crashed ? `the server process died (${stderr.trim() || 'no output'})` : String(error);
    throw new Error(`${why}${crashed ? '' : `\nserver stderr: ${stderr.trim()}`}`, { cause: error });
  }

  /**
   * Sends `requests` one after another on one connection, each awaited (a getMore
   * names the last cursor a reply opened), then a ping, then ends the connection.
   * Throws unless each is answered correctly or the connection closed for a reason.
   */
  async runSequence(requests: readonly FuzzRequest[]): Promise<void> {
    const failPoint = requests.some((r) => Object.keys(r.body)[0] === 'configureFailPoint');
    const connection = await FuzzConnection.open(this.port).catch((error: unknown) => this.failed(error, true));
    try {
      let lastCursorId: unknown = 0n;
      let mayClose = false;
      let open = true;
      const sentinel: FuzzRequest = { body: { ping: 1, $db: 'admin' }, flags: 0, legacy: false };
      for (const original of [...requests, sentinel]) {
        const request =
          original.body.getMore === LAST_CURSOR_ID
            ? { ...original, body: { ...original.body, getMore: lastCursorId } }
            : original;
        const requestId = this.nextRequestId++;
        let frame: Buffer;
        try {
          frame = encodeRequest(request, requestId);
        } catch {
          continue; // not encodable (e.g. over 16 MB): nothing to send
        }
        const what = show(request.body);
        connection.send(frame);
        // Unknown required flag bits: refused and the connection closed, and the bytes sent
        // after it may make the closed socket reset, losing the ProtocolError reply.
        if (!request.legacy && (request.flags & 0xffff & ~KNOWN_FLAGS) !== 0) mayClose = true;
        if (!expectsReply(request)) continue;
        let reply = await connection.next(what);
        // A moreToCome request refused as a protocol violation is answered although no reply was due; then the close.
        while (reply !== 'closed' && reply.responseTo < requestId && reply.body.codeName === 'ProtocolError') {
          checkReply(reply, reply.responseTo, false);
          mayClose = true;
          reply = await connection.next(what);
        }
        if (reply === 'closed') {
          open = false;
          if (mayClose || failPoint) break;
          throw new Error(`the server closed the connection without answering ${what}`);
        }
        try {
          checkReply(reply, requestId, request.legacy);
        } catch (error) {
          throw new Error(`${(error as Error).message}\n  in answer to ${what}`, { cause: error });
        }
        if (reply.body.codeName === 'ProtocolError') mayClose = true;
        const cursorId = (reply.body.cursor as Document | undefined)?.id;
        if (cursorId !== undefined && cursorId !== 0n) lastCursorId = cursorId;
        if (request === sentinel && reply.body.ok !== 1 && !failPoint) {
          throw new Error(`the closing ping was answered ${show(reply.body)}`);
        }
      }
      if (open) await connection.finish('the end of the connection');
    } catch (error) {
      await this.failed(error);
    } finally {
      connection.destroy();
    }
    await this.checkHealthy(failPoint);
  }

  /**
   * Sends `bytes` (a mutated frame) and a ping, then ends the connection:
   * each reply must be well-formed, and the server must close within HANG_MS.
   */
  async runBytes(bytes: Buffer, failPoint = false): Promise<void> {
    const connection = await FuzzConnection.open(this.port).catch((error: unknown) => this.failed(error, true));
    try {
      connection.send(bytes);
      connection.send(encodeOpMsgRequest(0x7ffffff0, { ping: 1, $db: 'admin' }));
      const replies = await connection.finish(`mutated frame ${bytes.subarray(0, 200).toString('hex')}`);
      for (const reply of replies) {
        if (reply.body.ok !== 0 && reply.body.ok !== 1) throw new Error(`reply without ok: ${show(reply.body)}`);
        if (reply.body.ok === 0) checkReply(reply, reply.responseTo, reply.opCode === OpCode.OP_REPLY);
      }
    } catch (error) {
      await this.failed(error);
    } finally {
      connection.destroy();
    }
    await this.checkHealthy(failPoint);
  }

  /**
   * A ping on a new connection is answered and the process lives. First turns
   * the fail point off, ends the fuzzer's sessions (and every 100 runs drops the data).
   */
  private async checkHealthy(failPoint: boolean): Promise<void> {
    const connection = await FuzzConnection.open(this.port).catch((error: unknown) => this.failed(error, true));
    try {
      const commands: Document[] = [{ endSessions: FUZZ_SESSION_IDS, $db: 'admin' }];
      if (failPoint) commands.unshift({ configureFailPoint: 'failCommand', mode: 'off', $db: 'admin' });
      if (++this.runs % 100 === 0) for (const db of ['fuzz', 'other']) commands.push({ dropDatabase: 1, $db: db });
      commands.push({ ping: 1, $db: 'admin' });
      for (const command of commands) {
        const requestId = this.nextRequestId++;
        connection.send(encodeOpMsgRequest(requestId, command));
        const reply = await connection.next(`the health check ${show(command)}`);
        if (reply === 'closed' || reply.body.ok !== 1) {
          throw new Error(
            `the health check ${show(command)} was answered ${reply === 'closed' ? 'by a close' : show(reply.body)}`,
          );
        }
      }
    } catch (error) {
      await this.failed(error, true);
    } finally {
      connection.destroy();
    }
  }
}
