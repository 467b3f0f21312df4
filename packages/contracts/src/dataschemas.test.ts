import { describe, expect, it } from 'vitest';
import { dataschemaDocument, FRAME_DATA } from './dataschemas.ts';
import { EXCEPTION_EVENTS, EXCEPTION_REQUESTS } from './exceptions.ts';
import {
  ERROR_EVENT,
  JOB_EVENT_TYPES,
  PING_EVENT,
  PONG_EVENT,
  SESSION_EVENT_TYPES,
  STATE_REQUEST_TYPES,
  SUBMISSION_TYPES,
} from './realtime.ts';

describe('the dataschemas of socket frames', () => {
  it('describe every frame type of every socket kind, both directions', () => {
    const types = [
      ...JOB_EVENT_TYPES,
      ...SUBMISSION_TYPES,
      ...Object.values(SESSION_EVENT_TYPES),
      ...STATE_REQUEST_TYPES,
      ...Object.values(EXCEPTION_EVENTS),
      ...Object.values(EXCEPTION_REQUESTS),
      PING_EVENT,
      PONG_EVENT,
      ERROR_EVENT,
    ];
    expect(Object.keys(FRAME_DATA).sort()).toEqual([...new Set(types)].sort());
  });

  it('put RPA frames in rpa.json and every other frame in quinn.json', () => {
    const rpa = dataschemaDocument('rpa', 'https://loopdesk.example.org') as {
      $id: string;
      $defs: Record<string, unknown>;
    };
    const quinn = dataschemaDocument('quinn', 'https://loopdesk.example.org/') as typeof rpa;
    expect(rpa.$id).toBe('https://loopdesk.example.org/schemas/rpa.json');
    expect(quinn.$id).toBe('https://loopdesk.example.org/schemas/20200718/quinn.json');
    expect(Object.keys(rpa.$defs).sort()).toEqual([
      'robot-process-automation.manual-step.job',
      'rpa.robot.clear',
    ]);
    expect(Object.keys(quinn.$defs)).toHaveLength(Object.keys(FRAME_DATA).length - 2);
  });
});
