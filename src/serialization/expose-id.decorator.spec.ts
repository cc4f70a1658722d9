import 'reflect-metadata';
import { Exclude, Expose, instanceToPlain } from 'class-transformer';
import { Types } from 'mongoose';
import { ExposeId } from './expose-id.decorator.js';
import { serializeObjectIds } from './serialize-object-ids.js';

const HEX_A = '64b7f0c2a1b2c3d4e5f60718';
const HEX_B = '0123456789abcdef01234567';
const A = new Types.ObjectId(HEX_A);
const B = new Types.ObjectId(HEX_B);

@ExposeId()
class UserEntity {
  _id = A;
  name = 'ann';
  @Exclude() password = 'secret';
}

class PostEntity {
  @ExposeId({ keepUnderscoreId: true }) _id = B;
  title = 't';
}

@ExposeId({ as: 'uid' })
class RenamedEntity {
  _id = A;
}

class AdminEntity extends UserEntity {
  role = 'admin';
}

@ExposeId()
class StrictEntity {
  @Expose() _id = A;
  @Expose() name = 'n';
  hidden = 'h';
}

class Page {
  items = [new UserEntity(), new PostEntity()];
  nextCursor = B;
}

const json = (value: unknown, options?: object): string => JSON.stringify(serializeObjectIds(value, options));

describe('@ExposeId', () => {
  it.each<[string, unknown, object | undefined, string]>([
    ['on the class: _id as id, _id dropped', new UserEntity(), undefined, `{"id":"${HEX_A}","name":"ann"}`],
    ['on the property, keeping _id', new PostEntity(), undefined, `{"id":"${HEX_B}","_id":"${HEX_B}","title":"t"}`],
    ['with another name', new RenamedEntity(), undefined, `{"uid":"${HEX_A}"}`],
    ['inherited by subclasses', new AdminEntity(), undefined, `{"id":"${HEX_A}","name":"ann","role":"admin"}`],
    [
      'with excludeExtraneousValues',
      new StrictEntity(),
      { excludeExtraneousValues: true },
      `{"name":"n","id":"${HEX_A}"}`,
    ],
    [
      'in envelopes and arrays',
      new Page(),
      undefined,
      `{"items":[{"id":"${HEX_A}","name":"ann"},{"id":"${HEX_B}","_id":"${HEX_B}","title":"t"}],"nextCursor":"${HEX_B}"}`,
    ],
  ])('should serialize %s', (_name, input, options, expected) => {
    expect(json(input, options)).toBe(expected);
  });

  it('should leave an instance without _id alone', () => {
    const entity = new UserEntity();
    delete (entity as Partial<UserEntity>)._id;
    expect(json(entity)).toBe('{"name":"ann"}');
  });

  it('should register the dropped _id as excluded for class-transformer', () => {
    expect(instanceToPlain(new UserEntity())).not.toHaveProperty('_id');
  });

  it('should refuse to expose an id onto itself', () => {
    expect(() => ExposeId({ as: '_id' })(class {})).toThrow("@ExposeId({ as: '_id' }) would write the id onto itself");
  });
});
