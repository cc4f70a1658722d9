import 'reflect-metadata';
import {
  ClassSerializerInterceptor,
  SerializeOptions,
  StreamableFile,
  type CallHandler,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Exclude, instanceToPlain, plainToInstance } from 'class-transformer';
import { Types } from 'mongoose';
import { from, lastValueFrom, of, toArray } from 'rxjs';
import { OBJECT_ID_SERIALIZER_OPTIONS } from '../object-id.constants.js';
import { ObjectIdSerializerInterceptor } from './object-id-serializer.interceptor.js';
import { ObjectIdSerializerModule } from './object-id-serializer.module.js';

const HEX_A = '64b7f0c2a1b2c3d4e5f60718';
const HEX_B = '0123456789abcdef01234567';
const A = new Types.ObjectId(HEX_A);

class Handlers {
  handler(): void {}
}

const context = {
  getHandler: () => Handlers.prototype.handler,
  getClass: () => Handlers,
  getType: () => 'http',
} as unknown as ExecutionContext;

async function run(interceptor: ClassSerializerInterceptor, value: unknown): Promise<unknown> {
  const next: CallHandler = { handle: () => of(value) };
  return lastValueFrom(await interceptor.intercept(context, next));
}

describe('ObjectIdSerializerInterceptor', () => {
  it('should apply each route its own @SerializeOptions, also for one handler inherited by two controllers', async () => {
    class Base {
      find(): void {}
    }
    @SerializeOptions({ excludePrefixes: ['_'] })
    class Hidden extends Base {}
    @SerializeOptions({ exposeId: true } as never)
    class Exposed extends Base {}
    const interceptor = new ObjectIdSerializerInterceptor(new Reflector());
    const runIn = async (controller: object) => {
      const ctx = { getHandler: () => Base.prototype.find, getClass: () => controller, getType: () => 'http' };
      return lastValueFrom(
        await interceptor.intercept(ctx as unknown as ExecutionContext, { handle: () => of({ _id: A, _note: 1 }) }),
      );
    };
    // Twice each: the second answer comes from the options read at the first.
    for (let round = 0; round < 2; round++) {
      expect(await runIn(Hidden)).toEqual({});
      expect(await runIn(Exposed)).toEqual({ id: HEX_A, _note: 1 });
      expect(await runIn(Base)).toEqual({ _id: HEX_A, _note: 1 });
    }
  });

  it('should serialize ObjectIds in a response as hex', async () => {
    const out = await run(new ObjectIdSerializerInterceptor(new Reflector()), [{ _id: A }, { list: [A] }]);
    expect(JSON.stringify(out)).toBe(`[{"_id":"${HEX_A}"},{"list":["${HEX_A}"]}]`);
  });

  it('should apply its default options (exposeId, versionKey, class-transformer options)', async () => {
    const interceptor = new ObjectIdSerializerInterceptor(new Reflector(), { exposeId: true, excludePrefixes: ['_s'] });
    expect(JSON.stringify(await run(interceptor, { _id: A, _secret: 1, name: 'x' }))).toBe(
      `{"id":"${HEX_A}","name":"x"}`,
    );
  });

  it('should serialize class instances nested 5,000 deep, @Exclude applied at every level', async () => {
    // class-transformer copies one level per call: alone, it overflows the stack at a few thousand.
    class Level {
      _id: unknown = A;
      @Exclude() secret = 'hidden';
      child?: Level;
    }
    const root = new Level();
    let node = root;
    for (let i = 1; i < 5_000; i++) node = node.child = new Level();
    node._id = new Types.ObjectId(HEX_B);
    let out = (await run(new ObjectIdSerializerInterceptor(new Reflector()), root)) as Record<string, unknown>;
    let depth = 1;
    let wrong = 0;
    for (; out.child !== undefined; depth++) {
      if (Object.keys(out).join() !== '_id,child' || out._id !== HEX_A) wrong++;
      out = out.child as Record<string, unknown>;
    }
    expect([depth, wrong]).toEqual([5_000, 0]);
    expect(out).toEqual({ _id: HEX_B });
  });

  it.each<[string, unknown]>([
    ['a string', 'text'],
    ['a number', 3],
    ['null', null],
    ['a StreamableFile', new StreamableFile(Buffer.from('x'))],
  ])('should pass %s through untouched', async (_name, value) => {
    expect(await run(new ObjectIdSerializerInterceptor(new Reflector()), value)).toBe(value);
  });

  it('should keep its transformer when another ClassSerializerInterceptor is created later', async () => {
    const ours = new ObjectIdSerializerInterceptor(new Reflector());
    const marker = { classToPlain: () => ({ replaced: true }), plainToInstance: <T>() => ({}) as T };
    const other = new ClassSerializerInterceptor(new Reflector(), { transformerPackage: marker });
    expect(await run(ours, { _id: A })).toEqual({ _id: HEX_A });
    expect(await run(other, { _id: A })).toEqual({ replaced: true });
  });

  it('should hand class instances to a given transformerPackage after converting ids', async () => {
    const seen: unknown[] = [];
    const transformerPackage = {
      classToPlain: (value: unknown) => {
        seen.push(value);
        return instanceToPlain(value);
      },
      plainToInstance,
    };
    class Entity {
      _id = A;
    }
    const interceptor = new ObjectIdSerializerInterceptor(new Reflector(), { transformerPackage });
    expect(await run(interceptor, new Entity())).toEqual({ _id: HEX_A });
    expect(seen).toHaveLength(1);
    expect((seen[0] as Entity)._id).toBe(HEX_A);
  });

  it('should be created by Nest with the options token', async () => {
    const ref = await Test.createTestingModule({
      providers: [
        ObjectIdSerializerInterceptor,
        { provide: OBJECT_ID_SERIALIZER_OPTIONS, useValue: { exposeId: true } },
      ],
    }).compile();
    expect(JSON.stringify(await run(ref.get(ObjectIdSerializerInterceptor), { _id: A }))).toBe(`{"id":"${HEX_A}"}`);
  });

  // Microservice and WebSocket replies: a handler may return an Observable of several messages, each serialized.
  it.each(['rpc', 'ws'])('should serialize each message of a %s reply', async (type) => {
    const replies = [{ event: 'order', data: { _id: A } }, [{ refs: [A] }]];
    const next: CallHandler = { handle: () => from(replies) };
    const interceptor = new ObjectIdSerializerInterceptor(new Reflector());
    const out = await lastValueFrom(
      (await interceptor.intercept({ ...context, getType: () => type } as ExecutionContext, next)).pipe(toArray()),
    );
    expect(out).toEqual([{ event: 'order', data: { _id: HEX_A } }, [{ refs: [HEX_A] }]]);
  });

  it('should be created by Nest without options', async () => {
    const ref = await Test.createTestingModule({ providers: [ObjectIdSerializerInterceptor] }).compile();
    expect(JSON.stringify(await run(ref.get(ObjectIdSerializerInterceptor), { _id: A }))).toBe(`{"_id":"${HEX_A}"}`);
  });
});

describe('ObjectIdSerializerModule', () => {
  // That it registers the interceptor for the whole app is asserted over HTTP in test/object-id-module.e2e-spec.ts.
  it('should provide its options to the interceptor Nest creates', async () => {
    const ref = await Test.createTestingModule({
      imports: [ObjectIdSerializerModule.forRoot({ exposeId: true })],
      providers: [ObjectIdSerializerInterceptor],
    }).compile();
    expect(ref.get(OBJECT_ID_SERIALIZER_OPTIONS)).toEqual({ exposeId: true });
    expect(JSON.stringify(await run(ref.get(ObjectIdSerializerInterceptor), { _id: A }))).toBe(`{"id":"${HEX_A}"}`);
  });
});
