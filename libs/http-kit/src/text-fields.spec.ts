import 'reflect-metadata';
import type { ArgumentMetadata } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { compilePlainBodyCheck } from './plain-body-check';
import { AliasOf, firstGiven, TextField } from './text-fields';
import { referenceValidationPipe } from './validation';

class ContactDto {
  @TextField({ maxLength: 5 })
  to?: string;

  @AliasOf('to', { maxLength: 5 })
  phone?: string;

  @TextField({ maxLength: 3, tooLong: 'must be at most 3 characters', notText: 'must be a code' })
  code?: string;

  @TextField()
  note?: string;
}

const body: ArgumentMetadata = { type: 'body', metatype: ContactDto, data: '' };
const errorOf = async (value: object) => {
  try {
    await referenceValidationPipe().transform(value, body);
    return null;
  } catch (error) {
    return (error as { error: string }).error;
  }
};

describe('TextField and AliasOf', () => {
  it('let absent and null fields through, and text within its length', async () => {
    await expect(referenceValidationPipe().transform({ to: '12345', phone: null, note: 'x'.repeat(10_000) }, body)).resolves.toBeInstanceOf(ContactDto);
  });

  it.each([
    [{ to: 123456 }, 'to must be a string'],
    [{ to: '123456' }, 'to is too long'],
    [{ phone: ['+1'] }, 'phone must be a string'],
    [{ phone: '123456' }, 'phone is too long'],
    [{ code: 1234 }, 'code must be a code'],
    [{ code: '1234' }, 'code must be at most 3 characters'],
    [{ note: false }, 'note must be a string'],
  ])('refuse %j: %s', async (value, error) => {
    expect(await errorOf(value)).toBe(error);
  });

  it('use only rules the validation fast path compiles', () => {
    expect(compilePlainBodyCheck(ContactDto)?.({ to: '1', phone: '2', code: '3', note: '4' })).toBe(true);
  });

  it('document an alias as one, and nothing else', () => {
    expect(Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, ContactDto.prototype, 'phone')).toMatchObject({
      required: false,
      description: 'Alias of `to`',
    });
    expect(Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, ContactDto.prototype, 'to')).toBeUndefined();
  });
});

describe('firstGiven', () => {
  it('answers the first value that is not blank, as it was sent', () => {
    expect(firstGiven(undefined, '  ', ' +1 ', '+2')).toBe(' +1 ');
    expect(firstGiven('', undefined)).toBeUndefined();
  });
});
