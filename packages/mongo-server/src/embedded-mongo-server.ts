import { createServer, type Server, type Socket } from 'node:net';

import { ObjectId } from './bson/bson-library.cjs';
import { CommandRouter } from './commands/command-router.js';
import { FailPoints } from './commands/fail-points.js';
import { CursorRegistry } from './cursor/cursor-registry.js';
import { SessionRegistry } from './session/session-registry.js';
import { MemoryStore } from './store/memory-store.js';
import { TtlMonitor } from './ttl-monitor.js';
import { WireConnection } from './wire/wire-connection.js';

/** Default of {@link EmbeddedMongoServerOptions.maxCommandTimeMS}. */
const DEFAULT_MAX_COMMAND_TIME_MS = 10_000;

/** Options of {@link EmbeddedMongoServer.start}. */
export interface EmbeddedMongoServerOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /**
   * Longest a transaction may stay open, as MongoDB's
   * `transactionLifetimeLimitSeconds`: then it is aborted and its locks freed.
   * @default 60
   */
  transactionLifetimeLimitSeconds?: number;
  /** The server's clock in milliseconds, for tests of time limits. @default Date.now */
  clock?: () => number;
  /**
   * Longest any one command may run, with or without `maxTimeMS`: past it
   * the command answers MaxTimeMSExpired. MongoDB has no such limit, but the
   * embedded server runs inside the hosting process and a command cannot be
   * interrupted from outside, so a runaway query must stop itself. 0 turns
   * the limit off.
   * @default 10000
   */
  maxCommandTimeMS?: number;
  /**
   * Seconds between two passes of the TTL monitor, which removes documents
   * expired under an `expireAfterSeconds` index (mongod's `ttlMonitorSleepSecs`).
   * Its timer never keeps the process alive.
   * @default 60
   */
  ttlMonitorSleepSecs?: number;
  /**
   * How long a cursor opened outside a session may stay unused before it is
   * closed (mongod's `cursorTimeoutMillis`; `setParameter` changes it while
   * running). A cursor opened with `noCursorTimeout` is exempt; one opened in
   * a session — every cursor of the Node.js driver — lives instead until its
   * session ends or goes unused for 30 minutes, as in MongoDB.
   * @default 600000
   */
  cursorTimeoutMillis?: number;
}

/** Options of {@link EmbeddedMongoServer.stop}. */
export interface EmbeddedMongoStopOptions {
  /** Keep the data so that {@link EmbeddedMongoServer.listen} can serve it again (same as `close()`). */
  keepData?: boolean;
}

/**
 * An in-memory server speaking MongoDB's wire protocol, **for tests and
 * demos — not a database**: no persistence, no journaling, no auth, no
 * replication. It presents itself as a single-member replica-set primary
 * (MongoDB 7.0, wire version 21) so that the official driver enables
 * sessions, retryable writes and transactions. Test commands are enabled:
 * `configureFailPoint` arms MongoDB's `failCommand` fail point.
 *
 * Lifecycle:
 * - `EmbeddedMongoServer.start()` listens (default 127.0.0.1, random port).
 * - `close()` closes the listener and every connection but keeps the data;
 *   `listen()` serves the same data again on the same host and port
 *   (`restart()` does both) — for fault-injection tests.
 * - `stop()` closes everything and drops the data.
 */
export class EmbeddedMongoServer {
  readonly host: string;
  private boundPort: number;
  private server?: Server;
  private readonly store = new MemoryStore();
  private readonly cursors: CursorRegistry;
  private readonly sessions: SessionRegistry;
  private readonly failPoints = new FailPoints();
  private readonly router: CommandRouter;
  private readonly ttlMonitor: TtlMonitor;
  private readonly connections = new Set<WireConnection>();
  private nextConnectionId = 1;
  /** hello's `topologyVersion.processId`, new per {@link listen}: to clients, a listen after a close is a restarted server. */
  private processId = new ObjectId();

  private constructor(options: EmbeddedMongoServerOptions) {
    this.host = options.host ?? '127.0.0.1';
    this.boundPort = options.port ?? 0;
    this.sessions = new SessionRegistry(this.store.locks, options);
    const sessions = this.sessions.localSessions;
    this.cursors = new CursorRegistry({
      clock: options.clock,
      timeoutMS: options.cursorTimeoutMillis,
      sessionLastUse: (key) => sessions.lastUse(key),
    });
    // A command in a session expired unseen starts it anew: its cursors must close first.
    sessions.onExpire((key) => this.cursors.killSessionCursors(new Set([key])));
    this.router = new CommandRouter(this.store, this.cursors, this.sessions, this.failPoints, {
      clock: options.clock ?? Date.now,
      maxCommandTimeMS: options.maxCommandTimeMS ?? DEFAULT_MAX_COMMAND_TIME_MS,
    });
    this.ttlMonitor = new TtlMonitor(this.store, options.clock ?? Date.now, options.ttlMonitorSleepSecs);
  }

  /** Starts a server and resolves once it accepts connections. */
  static async start(options: EmbeddedMongoServerOptions = {}): Promise<EmbeddedMongoServer> {
    const server = new EmbeddedMongoServer(options);
    await server.listen();
    return server;
  }

  /** The port the server listens (or last listened) on. */
  get port(): number {
    return this.boundPort;
  }

  /** Whether the listener is open. */
  get listening(): boolean {
    return this.server !== undefined;
  }

  /**
   * Connection string for `mongoose.connect` / `new MongoClient`.
   * `directConnection=true` keeps the driver on this one host although the
   * server reports a replica set (needed for transactions).
   */
  get uri(): string {
    return `mongodb://${this.host}:${this.port}/?directConnection=true`;
  }

  /** Opens the listener (again) on the same host and port, with the data kept by {@link close}. */
  async listen(): Promise<void> {
    if (this.server) return;
    const server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.boundPort, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    if (address && typeof address === 'object') this.boundPort = address.port;
    this.processId = new ObjectId();
    this.server = server;
    this.ttlMonitor.start();
  }

  /**
   * Closes the listener and every connection; open cursors, transactions
   * and the fail points are discarded (as a mongod restart
   * would), committed data is kept.
   */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const connection of this.connections) connection.destroy();
    this.connections.clear();
    this.cursors.clear();
    this.sessions.abortAll();
    this.failPoints.reset();
    this.ttlMonitor.stop();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** `close()` then `listen()`: same port, same data, all connections dropped. */
  async restart(): Promise<void> {
    await this.close();
    await this.listen();
  }

  /** Closes every socket and drops the data (unless `keepData`, which equals `close()`). */
  async stop(options: EmbeddedMongoStopOptions = {}): Promise<void> {
    await this.close();
    if (!options.keepData) this.store.clear();
  }

  /** Number of open client connections. */
  get connectionCount(): number {
    return this.connections.size;
  }

  toString(): string {
    return `EmbeddedMongoServer(${this.uri}) — in-memory MongoDB wire-protocol server for tests and demos, not a database`;
  }

  private accept(socket: Socket): void {
    const connection = new WireConnection(socket, this.router, {
      host: this.host,
      port: this.boundPort,
      connectionId: this.nextConnectionId++,
      processId: this.processId,
    });
    this.connections.add(connection);
    socket.once('close', () => this.connections.delete(connection));
  }
}
