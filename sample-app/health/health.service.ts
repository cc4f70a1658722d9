import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import mongoose, { type Connection } from 'mongoose';
import { databaseUnavailable } from '../database/database-unavailable.filter.js';
import type { HealthResponse } from './dto/health.response.js';

/** Answers whether MongoDB is reachable, by a `ping` on the app's own connection. */
@Injectable()
export class HealthService {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async check(): Promise<HealthResponse> {
    // Mongoose notices a lost server from the driver's heartbeat; answer at once then
    // instead of waiting serverSelectionTimeoutMS for the ping to fail.
    const db = this.connection.db;
    if (this.connection.readyState !== mongoose.ConnectionStates.connected || db === undefined)
      throw databaseUnavailable();
    await db.admin().command({ ping: 1 }); // driver errors become 503 in DatabaseUnavailableFilter
    return { status: 'ok', database: 'up' };
  }
}
