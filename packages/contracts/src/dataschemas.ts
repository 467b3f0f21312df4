import { z } from 'zod';
import {
  ConversationAddedData,
  ConversationEndedData,
  ConversationHandedBackData,
  ConversationSwitchedData,
  EndRequest,
  EXCEPTION_EVENTS,
  EXCEPTION_REQUESTS,
  HandbackRequest,
  ManualRespondedData,
  ManualResponse,
  MessageAddedData,
  SwitchRequest,
} from './exceptions.ts';
import {
  DATASCHEMAS,
  dataschemaOf,
  SUBMISSION_TYPES,
  SubmissionData,
  type DataschemaName,
} from './realtime.ts';
import { PORTAL_EVENTS, SERVER_EVENTS, SUBMISSION_PAYLOADS } from './realtime-events.ts';

/**
 * The data of every socket frame type, both directions (spec 1 §7), as the server checks it
 * (realtime-events.ts, exceptions.ts): what the JSON Schemas that frames name as `dataschema`
 * describe. A submission's data is its payload with the `jobId` of the job it answers.
 */
export const FRAME_DATA: Readonly<Record<string, z.ZodType>> = {
  ...SERVER_EVENTS,
  ...PORTAL_EVENTS,
  ...Object.fromEntries(
    SUBMISSION_TYPES.map((type) => [
      type,
      z.intersection(SubmissionData, SUBMISSION_PAYLOADS[type]),
    ]),
  ),
  [EXCEPTION_EVENTS.added]: ConversationAddedData,
  [EXCEPTION_EVENTS.switched]: ConversationSwitchedData,
  [EXCEPTION_EVENTS.ended]: ConversationEndedData,
  [EXCEPTION_EVENTS.handedBack]: ConversationHandedBackData,
  [EXCEPTION_EVENTS.messageAdded]: MessageAddedData,
  [EXCEPTION_EVENTS.manualResponded]: ManualRespondedData,
  [EXCEPTION_REQUESTS.switch]: SwitchRequest,
  [EXCEPTION_REQUESTS.handback]: HandbackRequest,
  [EXCEPTION_REQUESTS.end]: EndRequest,
  [EXCEPTION_REQUESTS.manualResponse]: ManualResponse,
};

const TITLES: Readonly<Record<DataschemaName, string>> = {
  quinn: 'quinn.json (20200718): the data of Loopdesk socket frames',
  rpa: 'rpa.json: the data of robot-process-automation socket frames',
};

/**
 * The JSON Schema (2020-12) served at `DATASCHEMAS[name]`: one definition per frame type under
 * `$defs`, keyed by the CloudEvents `type`, and the data of a frame is any one of them.
 */
export function dataschemaDocument(name: DataschemaName, origin: string): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (const [type, schema] of Object.entries(FRAME_DATA)) {
    if (dataschemaOf(type) === name) {
      const { $schema: _drop, ...definition } = z.toJSONSchema(schema, {
        target: 'draft-2020-12',
        io: 'input',
        unrepresentable: 'any',
      });
      defs[type] = definition;
    }
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${origin.replace(/\/$/, '')}${DATASCHEMAS[name]}`,
    title: TITLES[name],
    $defs: defs,
    anyOf: Object.keys(defs).map((type) => ({ $ref: `#/$defs/${encodeURIComponent(type)}` })),
  };
}
