import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested, registerDecorator } from 'class-validator';
import type { ValidationOptions } from 'class-validator';
import { toDtoInstance, validateDto } from './dto-transform.util.js';

/** A custom validator JSON Schema cannot express. */
function IsEven(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isEven',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: { validate: (value: unknown) => typeof value === 'number' && value % 2 === 0, defaultMessage: () => '$property must be even' },
    });
}

class CityDto {
  @IsString() name!: string;
  shout(): string {
    return this.name.toUpperCase();
  }
}

class TripDto {
  @IsString() title!: string;
  @IsEven() seats!: number;
  @ValidateNested() @Type(() => CityDto) from!: CityDto;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => CityDto) stops?: CityDto[];
  @IsOptional() @IsInt() days?: number;
}

const plain = { title: 'x', seats: 2, from: { name: 'oslo' }, stops: [{ name: 'bergen' }] };

describe('toDtoInstance', () => {
  it('returns an instance of the class with nested instances', () => {
    const trip = toDtoInstance(TripDto, plain);
    expect(trip).toBeInstanceOf(TripDto);
    expect(trip.from).toBeInstanceOf(CityDto);
    expect(trip.from.shout()).toBe('OSLO');
    expect(trip.stops?.[0]).toBeInstanceOf(CityDto);
  });

  it('keeps undeclared properties and converts nothing implicitly', () => {
    const trip = toDtoInstance(TripDto, { ...plain, days: '3', note: 'hi' });
    expect(trip.days).toBe('3');
    expect((trip as unknown as { note: string }).note).toBe('hi');
  });

  it('rejects non-objects', () => {
    expect(() => toDtoInstance(TripDto, [plain])).toThrow(TypeError);
    expect(() => toDtoInstance(TripDto, null)).toThrow('Cannot build TripDto from null: an object is required');
  });
});

describe('toDtoInstance refuses prototype keys at any depth, naming the path', () => {
  it.each([
    ['{"title":"x","constructor":{"a":1}}', 'constructor'],
    ['{"title":"x","__proto__":{"polluted":true}}', '__proto__'],
    ['{"title":"x","from":{"name":"oslo","prototype":1}}', 'from.prototype'],
    ['{"title":"x","stops":[{"name":"a"},{"__proto__":{}}]}', 'stops[1].__proto__'],
    ['{"title":"x","extra":{"constructor":{"prototype":{}}}}', 'extra.constructor'],
  ])('%s → "%s"', (json, path) => {
    expect(() => toDtoInstance(TripDto, JSON.parse(json))).toThrow(
      expect.objectContaining({ code: -32602, message: `Invalid arguments: "${path}" is not an accepted property name` }),
    );
  });

  it('names the path from where the value sits in the arguments', () => {
    expect(() => toDtoInstance(TripDto, JSON.parse('{"title":"x","from":{"__proto__":{}}}'), 'body')).toThrow('Invalid arguments: "body.from.__proto__" is not an accepted property name');
  });
});

describe('validateDto', () => {
  it('resolves undefined for a valid instance', async () => {
    await expect(validateDto(toDtoInstance(TripDto, plain))).resolves.toBeUndefined();
  });

  it('names the field of a custom validator failure', async () => {
    await expect(validateDto(toDtoInstance(TripDto, { ...plain, seats: 3 }))).resolves.toBe('Invalid arguments: "seats" must be even');
  });

  it('names nested and array paths', async () => {
    await expect(validateDto(toDtoInstance(TripDto, { ...plain, from: { name: 1 } }))).resolves.toBe('Invalid arguments: "from.name" must be a string');
    await expect(validateDto(toDtoInstance(TripDto, { ...plain, stops: [{ name: 'a' }, { name: 2 }] }))).resolves.toBe(
      'Invalid arguments: "stops[1].name" must be a string',
    );
  });

  it('names paths from where the instance sits in the arguments', async () => {
    await expect(validateDto(toDtoInstance(TripDto, { ...plain, seats: 3, from: { name: 1 } }), undefined, 'body')).resolves.toBe(
      'Invalid arguments: "body.seats" must be even; "body.from.name" must be a string',
    );
  });

  it('names every failing field, nested ones included, not just the first', async () => {
    await expect(validateDto(toDtoInstance(TripDto, { ...plain, seats: 3, from: { name: 1 }, stops: [{ name: 2 }, { name: 3 }] }))).resolves.toBe(
      'Invalid arguments: "seats" must be even; "from.name" must be a string; "stops[0].name" must be a string; "stops[1].name" must be a string',
    );
  });

  it('keeps a custom message that does not start with the property name', async () => {
    class Custom {
      @IsString({ message: 'Give me text' }) value!: string;
    }
    await expect(validateDto(toDtoInstance(Custom, { value: 1 }))).resolves.toBe('Invalid arguments: "value": Give me text');
  });
});
