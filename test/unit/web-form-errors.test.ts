import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../web/src/api/errors';
import { serverFieldErrors } from '../../web/src/logic/form-errors';

describe('the service\'s refusal on a form\'s fields', () => {
  const refusal = new ApiError(400, 'ValidationError', 'Some fields need attention', [
    { path: 'name', message: 'is taken' },
    { path: 'input/description', message: 'too long' },
    { path: 'legalValues/1/value', message: 'duplicate' },
    { path: 'name', message: 'a second word on the name' },
    { path: 'somewhereElse', message: 'not a field of this form' },
    { message: 'no path at all' },
  ]);

  it('puts each detail on the field its path names, by the form\'s path, the first message per field', () => {
    expect(serverFieldErrors(refusal, ['name', 'description', 'legalValues'])).toEqual({
      name: 'is taken',
      description: 'too long',
      'legalValues.1.value': 'duplicate',
    });
  });

  it('puts nothing on a form for what is not a refusal of the service, or names none of its fields', () => {
    expect(serverFieldErrors(new Error('network'), ['name'])).toEqual({});
    expect(serverFieldErrors(null, ['name'])).toEqual({});
    expect(serverFieldErrors(refusal, ['email'])).toEqual({});
  });
});
