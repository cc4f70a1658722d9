import {
  Inject,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
  UnprocessableEntityException,
  type OnModuleInit,
} from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import type { ClientSession, Connection, Model, Types } from 'mongoose';
import { isDatabaseUnavailableError } from 'nestjs-objectid';
import { SequenceService } from 'nestjs-objectid/sequence';
import { CATALOG_OPTIONS, type CatalogAppOptions } from '../catalog-options.interface.js';
import { ProductsService } from '../products/products.service.js';
import { hasErrorLabel, runBoundedTransaction } from './bounded-transaction.js';
import type { CreateOrderDto } from './dto/create-order.dto.js';
import type { OrderResponse } from './dto/order.response.js';
import { Order } from './schemas/order.schema.js';

/** Name of the sequence that numbers orders (defined in `AppModule`). */
export const ORDER_SEQUENCE = 'orders';

/** How long a gap-free order retries its transaction on a busy counter before it answers 503. */
export const ORDER_TRANSACTION_BUDGET_MS = 5000;

/** The message of that 503. */
export const ORDER_NUMBERS_BUSY_MESSAGE = 'too many orders at once, try again';

const cents = (amount: number) => Math.round(amount * 100);

/** Orders: validated against the products, numbered by `SequenceService`. */
@Injectable()
export class OrdersService implements OnModuleInit {
  /** The last gap-free order of this process to run, see {@link oneAtATime}. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly products: ProductsService,
    private readonly sequences: SequenceService,
    @InjectConnection() private readonly connection: Connection,
    @Inject(CATALOG_OPTIONS) private readonly options: CatalogAppOptions,
  ) {}

  /** The unique index on `number` must exist before the first order. */
  async onModuleInit(): Promise<void> {
    await this.orders.init();
  }

  /**
   * Checks every product first and takes the order number only then, so a
   * rejected order (422) consumes no number. The number is one atomic
   * `findOneAndUpdate` on the counter: concurrent orders (in any number of
   * processes) never share a number. A gap remains possible if the database
   * fails between taking the number and inserting the order. With
   * `orderNumbers: 'gap-free'` both run in one transaction
   * (`nextFormatted(name, { session })`): no gap, at the cost of serialising
   * concurrent orders on the counter document.
   */
  async create(dto: CreateOrderDto): Promise<OrderResponse> {
    const ids = dto.items.map((item) => item.productId);
    const products = await this.products.findMany(ids);
    const missing = ids.filter((id) => !products.some((product) => product._id.equals(id)));
    if (missing.length > 0) {
      throw new UnprocessableEntityException(
        `products do not exist: ${missing.map((id) => id.toHexString()).join(', ')}`,
      );
    }
    const items = dto.items.map((item) => ({
      productId: item.productId,
      quantity: item.quantity,
      unitPrice: products.find((product) => product._id.equals(item.productId))!.price,
    }));
    const total = items.reduce((sum, item) => sum + cents(item.unitPrice) * item.quantity, 0) / 100;
    const order =
      this.options.orderNumbers === 'gap-free'
        ? await this.insertNumberedInTransaction(items, total)
        : await this.insertNumbered(items, total);
    return toOrderResponse(order);
  }

  /**
   * Number and order in one transaction, retried on write conflicts with the
   * orders of other processes; within ORDER_TRANSACTION_BUDGET_MS of its arrival,
   * queue included, or 503 "busy" (the app's own 503 when the database is unreachable).
   */
  private async insertNumberedInTransaction(items: Order['items'], total: number): Promise<Order> {
    const deadline = performance.now() + ORDER_TRANSACTION_BUDGET_MS;
    try {
      return await this.oneAtATime(() => {
        const budget = deadline - performance.now();
        if (budget <= 0) throw new ServiceUnavailableException(ORDER_NUMBERS_BUSY_MESSAGE);
        return runBoundedTransaction(this.connection, (session) => this.insertNumbered(items, total, session), budget);
      });
    } catch (error) {
      if (hasErrorLabel(error, 'TransientTransactionError') && !isDatabaseUnavailableError(error)) {
        throw new ServiceUnavailableException(ORDER_NUMBERS_BUSY_MESSAGE, { cause: error });
      }
      throw error;
    }
  }

  /**
   * Runs gap-free orders of this process one after another. They all write the
   * same counter document, so concurrent ones could only conflict and retry;
   * queued, they take their turn in arrival order, and only orders of other
   * processes compete for the counter.
   */
  private oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
    const turn = this.queue.then(fn);
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async insertNumbered(items: Order['items'], total: number, session?: ClientSession): Promise<Order> {
    const number = await this.sequences.nextFormatted(ORDER_SEQUENCE, { session });
    const [order] = await this.orders.create([{ number, items, total }], { session });
    return order.toObject();
  }

  async findById(id: Types.ObjectId): Promise<OrderResponse> {
    const order = await this.orders.findById(id).lean();
    if (order === null) throw new NotFoundException(`order ${id.toHexString()} not found`);
    return toOrderResponse(order);
  }

  async findByNumber(number: string): Promise<OrderResponse> {
    const order = await this.orders.findOne({ number }).lean();
    if (order === null) throw new NotFoundException(`order ${JSON.stringify(number)} not found`);
    return toOrderResponse(order);
  }
}

/** Maps a stored order to the response; `createdAt` comes from the `_id`. */
export function toOrderResponse(order: Order): OrderResponse {
  return {
    id: order._id,
    number: order.number,
    items: order.items.map(({ productId, quantity, unitPrice }) => ({ productId, quantity, unitPrice })),
    total: order.total,
    createdAt: order._id.getTimestamp(),
  };
}
