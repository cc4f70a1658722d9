import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import mongoose, { type Connection } from 'mongoose';
import { databaseUnavailable } from '../database/database-unavailable.filter.js';
import type { HealthResponse } from './dto/health.response.js';

/** Answers whether MongoDB is reachable, by a `ping` on the app's own connection. */
@Injectable()
export class HealthService {
  /** A ping sent only to wake the driver's monitor is on its way. */
  private probing = false;

  constructor(@InjectConnection() private readonly connection: Connection) {}

  async check(): Promise<HealthResponse> {
    // Mongoose notices a lost server from the driver's heartbeat; answer at once then
    // instead of waiting serverSelectionTimeoutMS for the ping to fail.
    const db = this.connection.db;
    if (this.connection.readyState !== mongoose.ConnectionStates.connected || db === undefined) {
      if (db !== undefined) this.probe(db);
      throw databaseUnavailable();
    }
    await db.admin().command({ ping: 1 }); // driver errors become 503 in DatabaseUnavailableFilter
    return { status: 'ok', database: 'up' };
  }

  /**
   * Sends a ping whose answer nobody waits for. While the server is down the
   * driver's monitor checks it again only every heartbeatFrequencyMS (10 s)
   * unless an operation is waiting for it, so without this a health check
   * that never reaches the driver would see the database back up to 10 s
   * late. One at a time, however often /health is called.
   */
  private probe(db: NonNullable<Connection['db']>): void {
    if (this.probing) return;
    this.probing = true;
    db.admin()
      .command({ ping: 1 })
      .catch(() => undefined)
      .finally(() => (this.probing = false));
  }
}
