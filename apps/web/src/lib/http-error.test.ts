import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorBody } from '@loopdesk/contracts/errors.ts';
import { httpErrorFrom } from './http-error.ts';

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('httpErrorFrom', () => {
  it('keeps the keys an error body carries beyond the shape, readable through a route schema', async () => {
    const error = await httpErrorFrom(
      answer(409, {
        error: 'Conflict',
        message: 'Saved by someone else.',
        current: { version: 4 },
      }),
    );
    expect(error.body).toEqual({ error: 'Conflict', message: 'Saved by someone else.' });
    expect(error.extra).toEqual({ current: { version: 4 } });
    const Conflict = ErrorBody.extend({ current: z.object({ version: z.number() }) });
    expect(error.bodyAs(Conflict)?.current.version).toBe(4);
    expect(error.bodyAs(ErrorBody.extend({ holder: z.string() }))).toBeUndefined();
  });

  it('drops an answer that is not the error shape, extra keys and all', async () => {
    const error = await httpErrorFrom(answer(502, { current: { version: 4 } }));
    expect(error.body).toBeUndefined();
    expect(error.extra).toEqual({});
    expect(error.message).toBe('Request failed with status 502');
  });
});
