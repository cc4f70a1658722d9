import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import mongoose, { type Connection } from 'mongoose';
import { databaseUnavailable } from '../database/database-unavailable.filter.js';
import type { HealthResponse } from './dto/health.response.js';
import type { HealthUnavailableResponse } from './dto/health-unavailable.response.js';

/**
 * The body of `503 GET /health`: the app's usual 503 (`message`, `error`,
 * `statusCode`, in the order Nest writes them) and then the dependencies.
 */
export function healthUnavailableBody(): HealthUnavailableResponse {
  return {
    ...(databaseUnavailable().getResponse() as object),
    dependencies: { database: 'down' },
  } as HealthUnavailableResponse;
}

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
      throw databaseDown();
    }
    try {
      await db.admin().command({ ping: 1 });
    } catch (error) {
      // Whatever the driver says (unreachable, timed out, refused): the database does not answer.
      throw databaseDown(error);
    }
    return { status: 'ok', dependencies: { database: 'up' } };
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

function databaseDown(cause?: unknown): ServiceUnavailableException {
  return new ServiceUnavailableException(healthUnavailableBody(), { cause });
}
