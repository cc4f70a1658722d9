/**
 * Conformance: the replica-set commands test helpers call to wait for a
 * primary (`replSetGetStatus`, `replSetGetConfig`), answered as mongod's
 * primary answers them and consistent with hello; and the commands mongod has
 * that the embedded server does not run, refused with CommandNotSupported
 * naming them instead of "no such command". The first part runs against a
 * real MongoDB replica set via MONGO_URL too; the refusals are the embedded
 * server's own.
 */
import type { Document } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture({ transactions: true });
const embedded = !process.env.MONGO_URL;
const admin = () => fx.client.db('admin');

describe('replSetGetStatus and replSetGetConfig', () => {
  it("report this member as the set's primary, as hello does", async () => {
    const hello = await admin().command({ hello: 1 });
    const status = await admin().command({ replSetGetStatus: 1 });
    expect(status).toMatchObject({ ok: 1, set: hello.setName, myState: 1 });
    expect(status.date).toBeInstanceOf(Date);
    const me = (status.members as Document[]).find((member) => member.self === true);
    expect(me).toMatchObject({ name: hello.me, state: 1, stateStr: 'PRIMARY', health: 1 });
    expect(me?.optimeDate).toBeInstanceOf(Date);

    const { config } = await admin().command({ replSetGetConfig: 1 });
    expect(config._id).toBe(hello.setName);
    expect(config.version).toBe(hello.setVersion);
    expect((config.members as Document[]).map((member) => member.host)).toContain(hello.me);
  });

  it.each(['replSetGetStatus', 'replSetGetConfig'])('%s runs against the admin database only', async (name) => {
    const error = await rejection(fx.db.command({ [name]: 1 }));
    expect([error.code, error.codeName, error.message]).toEqual([
      13,
      'Unauthorized',
      `${name} may only be run against the admin database.`,
    ]);
  });
});

describe('commands mongod has and the embedded server does not run', () => {
  it.each(['currentOp', 'validate', 'compact', 'usersInfo', 'createUser', 'mapReduce', 'replSetStepDown', 'top'])(
    "'%s' is refused with CommandNotSupported naming it",
    async (name) => {
      if (!embedded) return;
      const error = await rejection(fx.db.command({ [name]: 1 }));
      expect([error.code, error.codeName]).toEqual([115, 'CommandNotSupported']);
      expect(error.message).toBe(
        `The '${name}' command is not supported by the embedded server: use a real MongoDB (MONGO_URL) for it`,
      );
    },
  );

  it.each(['isdbgrid', 'geoSearch', 'getnonce', 'noSuchCommand'])(
    "'%s', which mongod lacks too, is no such command",
    async (name) => {
      const error = await rejection(fx.db.command({ [name]: 1 }));
      expect([error.code, error.codeName, error.message]).toEqual([
        59,
        'CommandNotFound',
        `no such command: '${name}'`,
      ]);
    },
  );
});
