import 'reflect-metadata';
import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import request from 'supertest';
import { Types } from 'mongoose';

@Injectable()
class S {
  v() {
    return new Types.ObjectId().toHexString().length;
  }
}
@Controller()
class C {
  constructor(private readonly s: S) {}
  @Get() g() {
    return { n: this.s.v() };
  }
}
@Module({ controllers: [C], providers: [S] })
class M {}

describe.each(['express', 'fastify'])('%s', (kind) => {
  it('works', async () => {
    const ref = await Test.createTestingModule({ imports: [M] }).compile();
    const app = kind === 'express' ? ref.createNestApplication() : ref.createNestApplication(new FastifyAdapter());
    await app.init();
    if (kind === 'fastify') await app.getHttpAdapter().getInstance().ready();
    await request(app.getHttpServer()).get('/').expect(200, { n: 24 });
    await app.close();
  });
});
