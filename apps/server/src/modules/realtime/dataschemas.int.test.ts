import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataschemaDocument } from '@loopdesk/contracts/dataschemas.ts';
import { DATASCHEMAS, type DataschemaName } from '@loopdesk/contracts/realtime.ts';
import { frameProblem } from '../../test/frame-check.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';

/**
 * The data schemas that socket frames name (spec 1 §7: quinn.json of 20200718, the rpa schema)
 * are served as JSON Schemas at absolute URIs, generated from the contracts. Every frame the
 * test sockets receive in the realtime and exception suites is checked against them by
 * test/frame-check.ts with the CloudEvents SDK's own validation.
 */
describe('the dataschemas of socket frames', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(Object.keys(DATASCHEMAS) as DataschemaName[])(
    'serves %s as a JSON Schema 2020-12 document whose $id is the URI frames name',
    async (name) => {
      const response = await t.app.inject({ method: 'GET', url: DATASCHEMAS[name] });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/schema\+json/);
      const document = response.json<Record<string, unknown>>();
      expect(document).toEqual(dataschemaDocument(name, t.config.publicUrl));
      expect(document.$id).toBe(`${t.config.publicUrl}${DATASCHEMAS[name]}`);
      // A valid schema: the 2020-12 meta-schema accepts it and it compiles.
      const ajv = new Ajv2020({ strict: false });
      expect(() => ajv.compile(document)).not.toThrow();
    },
  );

  it('refuses a frame whose dataschema is not an absolute URI, or whose data does not match', () => {
    const origin = t.config.publicUrl;
    const frame = {
      specversion: '1.0',
      id: 'frame-1',
      type: 'technician.session.waiting',
      source: '/portal',
      datacontenttype: 'application/json',
      data: { state: 'waiting', source: 'federated' },
    };
    expect(
      frameProblem(origin, { ...frame, dataschema: `${origin}/schemas/20200718/quinn.json` }),
    ).toBeNull();
    // The name the spec gives, as frames carried it before: not a URI, so not a CloudEvent.
    expect(frameProblem(origin, { ...frame, dataschema: 'quinn.json#20200718' })).toMatch(
      /not a valid CloudEvent/,
    );
    expect(
      frameProblem(origin, {
        ...frame,
        dataschema: `${origin}/schemas/20200718/quinn.json`,
        data: { state: 'asleep', source: 'federated' },
      }),
    ).toMatch(/data does not match/);
    expect(
      frameProblem(origin, {
        ...frame,
        type: 'rpa.robot.clear',
        dataschema: `${origin}/schemas/20200718/quinn.json`,
      }),
    ).toMatch(/expected .*\/schemas\/rpa\.json/);
  });
});
