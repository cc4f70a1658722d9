import type { Document } from 'bson';

import { Long, Timestamp } from '../bson/bson-library.cjs';
import { checkAdminOnly, ELECTION_ID, REPLICA_SET_NAME, STARTED } from './admin-commands.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { lastWriteOpTime } from './cluster-time.js';

/** This member's address, as hello's `me` gives it. */
function self(ctx: CommandContext): string {
  return `${ctx.server.host}:${ctx.server.port}`;
}

/**
 * `replSetGetStatus` as mongod 7's primary of a one-member replica set
 * answers it (its fields, abridged of election metrics): test helpers wait
 * for `members[].stateStr === 'PRIMARY'` or `myState === 1` with it.
 */
const replSetGetStatus: CommandHandler = (_cmd, ctx) => {
  checkAdminOnly('replSetGetStatus', ctx);
  const now = new Date();
  // The only member has applied, made durable and committed every write.
  const { opTime, date: lastWrite } = lastWriteOpTime(ctx.store.changes.now);
  const electionTime = new Timestamp({ t: Math.floor(STARTED.getTime() / 1000), i: 1 });
  return {
    set: REPLICA_SET_NAME,
    date: now,
    myState: 1,
    term: Long.fromNumber(1),
    syncSourceHost: '',
    syncSourceId: -1,
    heartbeatIntervalMillis: Long.fromNumber(2000),
    majorityVoteCount: 1,
    writeMajorityCount: 1,
    votingMembersCount: 1,
    writableVotingMembersCount: 1,
    optimes: {
      lastCommittedOpTime: opTime,
      lastCommittedWallTime: lastWrite,
      readConcernMajorityOpTime: opTime,
      appliedOpTime: opTime,
      durableOpTime: opTime,
      lastAppliedWallTime: lastWrite,
      lastDurableWallTime: lastWrite,
    },
    members: [
      {
        _id: 0,
        name: self(ctx),
        health: 1,
        state: 1,
        stateStr: 'PRIMARY',
        uptime: Math.floor((now.getTime() - STARTED.getTime()) / 1000),
        optime: opTime,
        optimeDate: lastWrite,
        lastAppliedWallTime: lastWrite,
        lastDurableWallTime: lastWrite,
        syncSourceHost: '',
        syncSourceId: -1,
        infoMessage: '',
        electionTime,
        electionDate: STARTED,
        electionId: ELECTION_ID,
        configVersion: 1,
        configTerm: 1,
        self: true,
        lastHeartbeatMessage: '',
      },
    ],
    ok: 1,
  };
};

/** `replSetGetConfig`: the one-member configuration hello's `setName`, `hosts` and `setVersion` describe. */
const replSetGetConfig: CommandHandler = (_cmd, ctx) => {
  checkAdminOnly('replSetGetConfig', ctx);
  const config: Document = {
    _id: REPLICA_SET_NAME,
    version: 1,
    term: 1,
    members: [
      {
        _id: 0,
        host: self(ctx),
        arbiterOnly: false,
        buildIndexes: true,
        hidden: false,
        priority: 1,
        tags: {},
        secondaryDelaySecs: Long.fromNumber(0),
        votes: 1,
      },
    ],
    protocolVersion: Long.fromNumber(1),
    writeConcernMajorityJournalDefault: true,
  };
  return { config, ok: 1 };
};

/** The replica-set commands a single-member set answers. */
export const REPLICA_SET_COMMANDS: Record<string, CommandHandler> = { replSetGetStatus, replSetGetConfig };
