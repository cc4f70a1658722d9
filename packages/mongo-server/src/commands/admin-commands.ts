import { availableParallelism, release } from 'node:os';

import type { Document } from 'bson';

import { Double, ObjectId } from '../bson/bson-library.cjs';
import { Collation } from '../bson/collation.js';
import { checkValidatorOptions } from '../query/document-validation.js';
import { notSupported } from '../query/expression-check.js';
import { typeAlias } from '../query/element-operators.js';
import { compileFilter } from '../query/query-context.js';
import { bsonSize } from '../store/document-limits.js';
import { helloAwaitTimeMS, topologyVersion } from './awaitable-hello.js';
import { lastWriteOpTime } from './cluster-time.js';
import {
  checkSafeInt64,
  checkSessionId,
  collectionName,
  GENERIC_FIELDS,
  isNamespaceDatabase,
  MAX_NAMESPACE_LENGTH,
  optionalDocument,
  optionalDocumentArray,
  safeBool,
  wrongType,
} from './command-arguments.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';
import { missingField } from './idl-fields.js';
import { killDroppedPlans, NAMESPACE_COMMANDS } from './namespace-commands.js';
import { openCursor } from './read-commands.js';
import { checkViewDefinition } from './view-commands.js';
import { checkNewView } from './view-graph.js';

/** Wire versions 0..21 = MongoDB 7.0; the driver needs max >= 9. */
export const MAX_WIRE_VERSION = 21;
/** Name of the single-member replica set the server presents (transactions need one). */
export const REPLICA_SET_NAME = 'embedded';
/** The election that made this server primary, as hello and replSetGetStatus report it. */
export const ELECTION_ID = new ObjectId('7fffffff0000000000000001');
/** When this module was loaded: the server's uptime counts from it. */
export const STARTED = new Date();

function helloReply(ctx: CommandContext, legacy: boolean): Document {
  const me = `${ctx.server.host}:${ctx.server.port}`;
  const now = new Date();
  const { opTime, date: lastWriteDate } = lastWriteOpTime(ctx.store.changes.now);
  const reply: Document = {
    ...(legacy ? { ismaster: true } : {}),
    helloOk: true,
    isWritablePrimary: true,
    secondary: false,
    setName: REPLICA_SET_NAME,
    setVersion: 1,
    hosts: [me],
    primary: me,
    me,
    electionId: ELECTION_ID,
    lastWrite: { opTime, lastWriteDate, majorityOpTime: opTime, majorityWriteDate: lastWriteDate },
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: now,
    // Without this the driver silently treats the server as session-less.
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.server.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    // Present, the driver monitors with the streaming protocol (awaitable hello; see awaitable-hello.ts).
    topologyVersion: topologyVersion(ctx.server),
    ok: 1,
  };
  return reply;
}

// The wait of an awaitable hello happens before it runs (WireConnection); here its arguments are checked.
const hello: CommandHandler = (cmd, ctx) => (helloAwaitTimeMS(cmd, ctx.server), helloReply(ctx, false));
const isMaster: CommandHandler = (cmd, ctx) => (helloAwaitTimeMS(cmd, ctx.server), helloReply(ctx, true));

/** What a build of mongod reports of its build environment, for this process. */
const BUILD_ENVIRONMENT = {
  distmod: 'embedded',
  distarch: process.arch,
  target_arch: process.arch,
  target_os: process.platform,
};

/** buildInfo's fields in mongod's order (those of Windows builds and openssl left out). */
const buildInfo: CommandHandler = () => ({
  version: '7.0.0',
  gitVersion: 'embedded-test-server',
  modules: [],
  allocator: 'system',
  javascriptEngine: 'none',
  sysInfo: 'deprecated',
  versionArray: [7, 0, 0, 0],
  buildEnvironment: BUILD_ENVIRONMENT,
  bits: 64,
  debug: false,
  maxBsonObjectSize: 16 * 1024 * 1024,
  storageEngines: ['embedded-memory'],
  ok: 1,
});

/** hostInfo's sections with mongod's fields of them (memory and NUMA figures left out). */
const hostInfo: CommandHandler = () => ({
  system: {
    currentTime: new Date(),
    hostname: 'embedded',
    cpuAddrSize: 64,
    numCores: availableParallelism(),
    cpuArch: process.arch === 'x64' ? 'x86_64' : process.arch,
  },
  os: { type: process.platform, name: 'embedded-test-server', version: release() },
  extra: {},
  ok: 1,
});

/** The databases whose collections mongod counts as internal in `catalogStats`. */
const INTERNAL_DATABASES = new Set(['admin', 'config', 'local']);

/** serverStatus's `catalogStats`: collections and views, the internal ones (system databases, `system.*`) apart. */
function catalogStats(ctx: CommandContext): Document {
  const stats = { collections: 0, clustered: 0, timeseries: 0, views: 0, internalCollections: 0, internalViews: 0 };
  for (const db of ctx.store.databaseNames()) {
    for (const collection of ctx.store.collections(db)) {
      const internal = INTERNAL_DATABASES.has(db) || collection.name.startsWith('system.');
      const view = collection.options.viewOn !== undefined;
      if (view) stats[internal ? 'internalViews' : 'views']++;
      else stats[internal ? 'internalCollections' : 'collections']++;
    }
  }
  return stats;
}

/** serverStatus's process fields in mongod's order and types (uptime a double, the rest Int64), then its sections. */
const serverStatus: CommandHandler = (_cmd, ctx) => {
  const uptimeMillis = Date.now() - STARTED.getTime();
  return {
    host: `${ctx.server.host}:${ctx.server.port}`,
    version: '7.0.0',
    process: 'embedded-test-server',
    pid: BigInt(process.pid),
    uptime: new Double(uptimeMillis / 1000),
    uptimeMillis: BigInt(uptimeMillis),
    uptimeEstimate: BigInt(Math.floor(uptimeMillis / 1000)),
    localTime: new Date(),
    catalogStats: catalogStats(ctx),
    // What tests of cursor leaks read: cursors open now, opened, closed for being idle.
    metrics: { cursor: ctx.cursors.metrics() },
    ok: 1,
  };
};

/** mongod's refusal of an admin-only command run elsewhere. */
export function checkAdminOnly(name: string, ctx: CommandContext): void {
  if (ctx.db !== 'admin') throw new CommandError('Unauthorized', `${name} may only be run against the admin database.`);
}

/** A server parameter getParameter reports: its value, and where mongod lets it be set. */
interface ServerParameter {
  readonly value: (ctx: CommandContext) => unknown;
  readonly settableAtRuntime: boolean;
  readonly settableAtStartup: boolean;
}

/** The parameters the embedded server has, by name in mongod's (alphabetical) order. */
const SERVER_PARAMETERS = new Map<string, ServerParameter>([
  [
    'cursorTimeoutMillis',
    { value: (ctx) => BigInt(ctx.cursors.timeoutMS), settableAtRuntime: true, settableAtStartup: true },
  ],
  [
    'featureCompatibilityVersion',
    { value: () => ({ version: '7.0' }), settableAtRuntime: false, settableAtStartup: false },
  ],
  [
    'internalQueryMaxAllowedDensifyDocs',
    {
      value: (ctx) => ctx.knobs.internalQueryMaxAllowedDensifyDocs,
      settableAtRuntime: true,
      settableAtStartup: true,
    },
  ],
  // Logging is always quiet here; reported so that a probe of a harmless parameter finds one.
  ['quiet', { value: () => false, settableAtRuntime: true, settableAtStartup: true }],
]);

/**
 * getParameter as mongod reads it: `'*'` or `{ allParameters: true }` for
 * every parameter, otherwise those the command names (unknown names are
 * ignored), each with its settability under `{ showDetails: true }` (both
 * safeBools); none at all is InvalidOptions.
 */
const getParameter: CommandHandler = (cmd, ctx) => {
  const spec: unknown = cmd.getParameter;
  let all = spec === '*';
  let showDetails = false;
  if (typeAlias(spec) === 'object') {
    showDetails = safeBool(spec as Document, 'showDetails', 'getParameter.showDetails');
    all = safeBool(spec as Document, 'allParameters', 'getParameter.allParameters');
  }
  const reply: Document = {};
  for (const [name, parameter] of SERVER_PARAMETERS) {
    if (!all && !Object.hasOwn(cmd, name)) continue;
    const value = parameter.value(ctx);
    reply[name] = showDetails
      ? { value, settableAtRuntime: parameter.settableAtRuntime, settableAtStartup: parameter.settableAtStartup }
      : value;
  }
  if (Object.keys(reply).length === 0) throw new CommandError('InvalidOptions', 'no option found to get');
  return { ...reply, ok: 1 };
};

/** A number setParameter takes for an integer parameter, taken whole; undefined for any other value. */
function wholeNumber(value: unknown): number | undefined {
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? Math.trunc(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** The runtime parameters setParameter changes, each with its check and how it is applied. */
const SETTABLE_PARAMETERS = new Map<string, (value: unknown, ctx: CommandContext) => unknown>([
  [
    // An Int64 in mongod.
    'cursorTimeoutMillis',
    (value, ctx) => {
      const ms = wholeNumber(value);
      if (ms === undefined) {
        throw new CommandError('BadValue', `Invalid value for parameter cursorTimeoutMillis: ${String(value)}`);
      }
      const was = BigInt(ctx.cursors.timeoutMS);
      ctx.cursors.timeoutMS = ms;
      return was;
    },
  ],
  [
    // An int in mongod, greater than 0 (query_knobs.idl).
    'internalQueryMaxAllowedDensifyDocs',
    (value, ctx) => {
      const n = wholeNumber(value);
      if (n === undefined || n > 2 ** 31 - 1) {
        throw new CommandError(
          'BadValue',
          `Invalid value for parameter internalQueryMaxAllowedDensifyDocs: ${String(value)}`,
        );
      }
      if (n <= 0) {
        throw new CommandError(
          'BadValue',
          `Invalid value for parameter internalQueryMaxAllowedDensifyDocs: ${n} is not greater than 0`,
        );
      }
      const was = ctx.knobs.internalQueryMaxAllowedDensifyDocs;
      ctx.knobs.internalQueryMaxAllowedDensifyDocs = n;
      return was;
    },
  ],
]);

/**
 * setParameter of the runtime parameters the embedded server has
 * ({@link SETTABLE_PARAMETERS}). Any
 * other parameter is refused naming it rather than accepted and ignored.
 */
const setParameter: CommandHandler = (cmd, ctx) => {
  checkAdminOnly('setParameter', ctx);
  const names = Object.keys(cmd).filter((field) => field !== 'setParameter' && !GENERIC_FIELDS.has(field));
  if (names.length === 0)
    throw new CommandError('InvalidOptions', 'no option found to set, use help:true to see options ');
  const unsupported = names.find((name) => !SETTABLE_PARAMETERS.has(name));
  if (unsupported !== undefined) {
    const settable = [...SETTABLE_PARAMETERS.keys()].join(' and ');
    throw notSupported(`setParameter '${unsupported}' (only ${settable} are settable)`);
  }
  // mongod sets each one and answers the first one's previous value.
  const was = names.map((name) => SETTABLE_PARAMETERS.get(name)!(cmd[name], ctx))[0];
  return { was, ok: 1 };
};

/** A `killAllSessions` user pattern, checked as its IDL (KillAllSessionsUser: `user` and `db` strings). */
function checkSessionUser(value: unknown, index: number): void {
  const label = 'KillAllSessionsCmd.killAllSessions';
  if (typeAlias(value) !== 'object') throw wrongType(`${label}.${index}`, value, 'object');
  const user = value as Document;
  for (const field of ['user', 'db']) {
    if (user[field] !== undefined && typeof user[field] !== 'string') {
      throw wrongType(`${label}.${field}`, user[field], 'string');
    }
  }
  for (const field of ['user', 'db']) {
    if (user[field] === undefined) {
      throw missingField(`${label}.${field}`);
    }
  }
}

/**
 * killAllSessions: `[]` closes the cursors of every session and aborts their
 * open transactions, as mongod kills its sessions' operations; a list of users
 * kills only theirs, and the embedded server's sessions belong to no user (it
 * has no authentication).
 */
const killAllSessions: CommandHandler = (cmd, ctx) => {
  const users: unknown = cmd.killAllSessions;
  if (!Array.isArray(users)) throw wrongType('KillAllSessionsCmd.killAllSessions', users, 'array');
  users.forEach(checkSessionUser);
  if (users.length === 0) {
    ctx.cursors.killSessionCursors();
    // Test runners call it between tests to end what a failed test left open (the unified test format does).
    ctx.sessions.abortOpenTransactions();
  }
  return { ok: 1 };
};

/**
 * The names `create` refuses in its own words (mongod's userAllowedCreateNS),
 * before the checks every command makes: a NUL byte, a leading dot, too long
 * a namespace, a `$` in the collection's or the database's name.
 */
function checkCreatedName(db: string, name: unknown): void {
  if (typeof name !== 'string' || name.length === 0) return;
  const ns = `${db}.${name}`;
  const problem = name.includes('\0')
    ? 'namespaces cannot have embedded null characters'
    : name.startsWith('.')
      ? `Collection names cannot start with '.': ${name}`
      : ns.length > MAX_NAMESPACE_LENGTH
        ? `Fully qualified namespace is too long. Namespace: ${ns} Max: ${MAX_NAMESPACE_LENGTH}`
        : name.includes('$')
          ? `Invalid collection name: ${name}`
          : db.includes('$') && isNamespaceDatabase(db)
            ? `Invalid namespace: ${ns}`
            : undefined;
  if (problem !== undefined) throw new CommandError('InvalidNamespace', problem);
}

const create: CommandHandler = (cmd, ctx) => {
  checkCreatedName(ctx.db, cmd.create);
  const name = collectionName(cmd, 'create');
  const {
    create: _name,
    $db: _db,
    lsid: _lsid,
    $clusterTime: _ct,
    txnNumber: _t,
    autocommit: _a,
    startTransaction: _s,
    writeConcern: _w,
    $readPreference: _rp,
    ...options
  } = cmd;
  const existing = ctx.collection(name);
  if (existing) {
    // MongoDB 7 accepts re-creating a collection with the same options.
    if (Object.keys(options).length === 0 && existing.options.viewOn === undefined) return { ok: 1 };
    throw new CommandError('NamespaceExists', `Collection ${ctx.db}.${name} already exists.`);
  }
  checkCappedOptions(options);
  refuseUnsupportedOptions(options);
  const isView = options.viewOn !== undefined || options.pipeline !== undefined;
  if (isView && ctx.transaction) {
    throw new CommandError(
      'OperationNotSupportedInTransaction',
      'Cannot create a view in a multi-document transaction.',
    );
  }
  if (isView) checkViewDefinition(options);
  checkValidatorOptions(options);
  if (options.collation !== undefined) {
    // The default collation is kept (and listCollections reports it) with every field filled in; simple is none.
    const collation = Collation.parse(options.collation);
    if (collation) options.collation = { ...collation.spec };
    else delete options.collation;
  }
  if (isView) checkNewView(ctx, name, options);
  ctx.ensureCollection(name, options);
  // A transaction's collection moves the cluster time when it commits.
  if (!ctx.transaction) ctx.store.changes.catalogChanged();
  return { ok: 1 };
};

/**
 * `create`'s capped options as its IDL reads them (`capped` a safeBool,
 * `size` and `max` safeInt64s, `size` at least 1), then the size a capped
 * collection needs: what mongod answers before a capped collection exists.
 */
function checkCappedOptions(options: Document): void {
  const capped = safeBool(options, 'capped', 'create.capped');
  const size = checkSafeInt64(options.size, 'create.size', 'size', 1n);
  checkSafeInt64(options.max, 'create.max', 'max');
  if (capped && size === undefined) {
    throw new CommandError('InvalidOptions', "the 'size' field is required when 'capped' is true");
  }
}

/** `create` options whose feature the embedded server lacks: refused by name, never silently ignored. */
const UNSUPPORTED_CREATE_OPTIONS = [
  'capped',
  'timeseries',
  'clusteredIndex',
  'changeStreamPreAndPostImages',
  'encryptedFields',
];

function refuseUnsupportedOptions(options: Document): void {
  for (const option of UNSUPPORTED_CREATE_OPTIONS) {
    if (options[option] !== undefined && options[option] !== false) {
      throw new CommandError(
        'CommandNotSupported',
        `create option '${option}' is not supported by the embedded server: use a real MongoDB (MONGO_URL) for it`,
      );
    }
  }
}

const drop: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'drop');
  const dropped = ctx.store.dropCollection(ctx.db, name);
  if (dropped) {
    ctx.store.changes.collectionDropped(ctx.db, name);
    killDroppedPlans(ctx, dropped);
  }
  // MongoDB 7 reports success for a collection that does not exist.
  return dropped ? { nIndexesWas: dropped.indexSpecs().length, ns: dropped.ns, ok: 1 } : { ok: 1 };
};

const dropDatabase: CommandHandler = (_cmd, ctx) => {
  const collections = ctx.store.collections(ctx.db);
  const names = collections.map((collection) => collection.name);
  ctx.store.dropDatabase(ctx.db);
  for (const collection of collections) killDroppedPlans(ctx, collection);
  if (names.length === 0) return { ok: 1 }; // mongod names only a database it dropped
  ctx.store.changes.databaseDropped(ctx.db, names);
  return { dropped: ctx.db, ok: 1 };
};

/**
 * listCollections: each collection's and view's description, kept when it
 * matches `filter` (any query, on the whole description), then cut to its
 * name and type with `nameOnly`.
 */
const listCollections: CommandHandler = (cmd, ctx) => {
  const matches = compileFilter(optionalDocument(cmd, 'filter', 'listCollections.filter'));
  const nameOnly = cmd.nameOnly === true;
  const infos = ctx.store
    .collections(ctx.db)
    .map((collection): Document => {
      const type = collection.options.viewOn === undefined ? 'collection' : 'view';
      if (type === 'view')
        return { name: collection.name, type, options: collection.options, info: { readOnly: true } };
      return {
        name: collection.name,
        type,
        options: collection.options,
        info: { readOnly: false, uuid: collection.uuid },
        idIndex: collection.indexSpecs()[0],
      };
    })
    .filter(matches)
    .map((info) => (nameOnly ? { name: info.name, type: info.type } : info));
  const batchSize = (cmd.cursor as Document | undefined)?.batchSize as number | undefined;
  return openCursor(ctx, `${ctx.db}.$cmd.listCollections`, infos, batchSize);
};

/** The bytes a database's documents take as BSON: what `sizeOnDisk` reports here (there is no disk). */
function databaseSize(ctx: CommandContext, db: string): number {
  let size = 0;
  for (const collection of ctx.store.collections(db)) for (const doc of collection.documents()) size += bsonSize(doc);
  return size;
}

/**
 * listDatabases: each database with its size, kept when it matches `filter`
 * (on name, sizeOnDisk, empty), with their total unless `nameOnly`.
 */
const listDatabases: CommandHandler = (cmd, ctx) => {
  const matches = compileFilter(optionalDocument(cmd, 'filter', 'listDatabases.filter'));
  const databases = ctx.store
    .databaseNames()
    .map((name) => {
      // A listed database holds a collection, which on mongod always takes some disk: never empty.
      return { name, sizeOnDisk: databaseSize(ctx, name), empty: false };
    })
    .filter(matches);
  if (cmd.nameOnly === true) return { databases: databases.map(({ name }) => ({ name })), ok: 1 };
  const totalSize = databases.reduce((sum, database) => sum + database.sizeOnDisk, 0);
  return { databases, totalSize, totalSizeMb: Math.floor(totalSize / (1024 * 1024)), ok: 1 };
};

const endSessions: CommandHandler = (cmd, ctx) => {
  const lsids: unknown = cmd.endSessions;
  // As mongod 7.0 answers (its IDL's array, before each entry's own checks).
  if (!Array.isArray(lsids)) throw wrongType('endSessions.endSessions', lsids, 'array');
  const entries = optionalDocumentArray(lsids, 'endSessions.endSessionsFromClient') ?? [];
  for (const lsid of entries) checkSessionId(lsid, 'endSessions.endSessionsFromClient');
  // Their cursors close now; mongod closes them at its next session refresh (within 5 minutes).
  ctx.cursors.killSessionCursors(new Set(ctx.sessions.end(entries)));
  return { ok: 1 };
};

const ping: CommandHandler = () => ({ ok: 1 });

/** Handshake, diagnostics, namespaces and sessions. */
export const ADMIN_COMMANDS: Record<string, CommandHandler> = {
  hello,
  isMaster,
  ismaster: isMaster,
  ping,
  buildInfo,
  buildinfo: buildInfo,
  hostInfo,
  serverStatus,
  getParameter,
  create,
  drop,
  dropDatabase,
  listCollections,
  listDatabases,
  endSessions,
  killAllSessions,
  setParameter,
  ...NAMESPACE_COMMANDS,
};
