import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { CloudEvent, ValidationError } from 'cloudevents';
import { dataschemaDocument } from '@loopdesk/contracts/dataschemas.ts';
import { DATASCHEMAS, dataschemaOf, type DataschemaName } from '@loopdesk/contracts/realtime.ts';

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();

/** The validator of one frame type's data in the schema served at `origin`. */
function dataValidator(origin: string, type: string): ValidateFunction | undefined {
  const name: DataschemaName = dataschemaOf(type);
  const key = `${origin}${DATASCHEMAS[name]}#${type}`;
  let validate = validators.get(key);
  if (!validate) {
    const document = dataschemaDocument(name, origin) as { $defs: Record<string, object> };
    const definition = document.$defs[type];
    if (!definition) {
      return undefined;
    }
    validate = ajv.compile(definition);
    validators.set(key, validate);
  }
  return validate;
}

/**
 * What is wrong with a frame the server sent, or null: checked by the CloudEvents SDK's own
 * validation (CloudEvents 1.0: an absolute-URI `dataschema`, required attributes…), then its
 * data against the JSON Schema its `dataschema` names. Test clients run it on every frame.
 */
export function frameProblem(origin: string, frame: Record<string, unknown>): string | null {
  try {
    new CloudEvent(frame, true);
  } catch (error) {
    const detail = error instanceof ValidationError ? JSON.stringify(error.errors) : String(error);
    return `${String(frame.type)} is not a valid CloudEvent: ${detail}`;
  }
  const type = String(frame.type);
  const expected = `${origin.replace(/\/$/, '')}${DATASCHEMAS[dataschemaOf(type)]}`;
  if (frame.dataschema !== expected) {
    return `${type} names dataschema ${String(frame.dataschema)}, expected ${expected}`;
  }
  const validate = dataValidator(origin, type);
  if (!validate) {
    return `${type} has no definition in ${expected}`;
  }
  if (!validate(frame.data)) {
    return `${type} data does not match ${expected}: ${ajv.errorsText(validate.errors)}`;
  }
  return null;
}
