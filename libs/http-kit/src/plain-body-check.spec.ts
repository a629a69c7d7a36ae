import 'reflect-metadata';
import type { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import { Allow, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ApiError } from './api-error';
import { compilePlainBodyCheck } from './plain-body-check';
import { apiValidationPipe, referenceValidationPipe } from './validation';

class SimpleDto {
  @IsOptional()
  @IsString({ message: 'to must be a string' })
  @MaxLength(5, { message: 'to is too long' })
  to?: string;

  @IsString({ message: 'name must be a string' })
  @IsNotEmpty({ message: 'name is required' })
  name!: string;

  @Allow()
  extra?: unknown;
}

class WithIntDto {
  @IsOptional()
  @IsInt()
  count?: number;
}

class WithGroupsDto {
  @IsString({ groups: ['admin'] })
  name!: string;
}

class WithConditionDto {
  @ValidateIf((body: { name?: string }) => body.name !== 'skip')
  @IsString()
  name!: string;
}

class WithTypeDto {
  @IsOptional()
  @IsString()
  @Type(() => String)
  name?: string;
}

const bodyOf = (dto: new () => object): ArgumentMetadata => ({ type: 'body', metatype: dto, data: '' });

describe('compilePlainBodyCheck', () => {
  it('passes bodies of known properties whose values surely pass their rules', () => {
    const check = compilePlainBodyCheck(SimpleDto);
    expect(check).not.toBeNull();
    expect(check?.({ name: 'Ann' })).toBe(true);
    expect(check?.({ name: 'Ann', to: '12345', extra: 3 })).toBe(true);
    expect(check?.({ name: 'Ann', to: null, extra: false })).toBe(true);
  });

  it('leaves to class-validator what it is not sure of', () => {
    const check = compilePlainBodyCheck(SimpleDto);
    for (const body of [
      {},
      { name: '' },
      { name: 3 },
      { name: 'Ann', to: '123456' },
      { name: 'Ann', to: '😀😀😀' }, // three characters to class-validator, six UTF-16 units
      { name: 'Ann', unknown: 1 },
      { name: 'Ann', extra: { nested: true } },
      { name: 'Ann', extra: [1] },
      [{ name: 'Ann' }],
      null,
      'name',
      Object.assign(Object.create({ inherited: 1 }) as object, { name: 'Ann' }),
    ]) {
      expect(check?.(body)).toBe(false);
    }
  });

  it('compiles no check for a DTO with a rule, option or transformation it does not know', () => {
    expect(compilePlainBodyCheck(WithIntDto)).toBeNull();
    expect(compilePlainBodyCheck(WithGroupsDto)).toBeNull();
    expect(compilePlainBodyCheck(WithConditionDto)).toBeNull();
    expect(compilePlainBodyCheck(WithTypeDto)).toBeNull();
    expect(compilePlainBodyCheck(class Empty {})).toBeNull();
  });
});

describe('apiValidationPipe', () => {
  it('turns a body that surely passes into an instance of the DTO without class-validator', async () => {
    const pipe = apiValidationPipe();
    const real = referenceValidationPipe();
    const body = { name: 'Ann', to: '123', extra: 1 };
    const fast = await pipe.transform(body, bodyOf(SimpleDto));
    expect(fast).toBeInstanceOf(SimpleDto);
    expect(fast).toEqual(await real.transform(body, bodyOf(SimpleDto)));
    expect(fast).not.toBe(body);
  });

  it('leaves bodies of types without rules to the pipe', async () => {
    const pipe = apiValidationPipe();
    for (const metatype of [String, Number, Object, Array]) expect(compilePlainBodyCheck(metatype as new () => object)).toBeNull();
    const real = referenceValidationPipe();
    for (const [value, metatype] of [
      ['7', Number],
      [{ any: 1 }, Object],
      [['a'], Array],
    ] as const) {
      expect(await pipe.transform(value, bodyOf(metatype as unknown as new () => object))).toEqual(
        await real.transform(value, bodyOf(metatype as unknown as new () => object)),
      );
    }
  });

  it('answers the pipe’s errors for a body it is not sure of', async () => {
    const pipe = apiValidationPipe();
    await expect(pipe.transform({ name: 'Ann', to: '123456' }, bodyOf(SimpleDto))).rejects.toThrow(ApiError);
    await expect(pipe.transform({ name: 'Ann', to: '123456' }, bodyOf(SimpleDto))).rejects.toMatchObject({ error: 'to is too long' });
    await expect(pipe.transform({ name: 'Ann', nope: 1 }, bodyOf(SimpleDto))).rejects.toMatchObject({ error: 'nope is not a known field' });
    await expect(pipe.transform({ count: 1.5 }, bodyOf(WithIntDto))).rejects.toThrow(ApiError);
    await expect(pipe.transform({ count: 2 }, bodyOf(WithIntDto))).resolves.toEqual(Object.assign(new WithIntDto(), { count: 2 }));
  });
});
