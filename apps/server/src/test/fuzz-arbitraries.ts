import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries for the fuzz drill (platform/fuzz.int.test.ts): values drawn from a
 * route's zod schemas, then mutated the ways a careless or hostile client does (wrong types,
 * missing and extra fields, huge strings, deep nesting, NUL and odd unicode, `__proto__` keys).
 */

interface ZodDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly options?: readonly z.ZodType[];
  readonly entries?: Record<string, string | number>;
  readonly values?: readonly unknown[];
  readonly valueType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly format?: string;
  readonly getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): ZodDef =>
  (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** Strings no client should send but some will: NUL, lone surrogates, bidi controls, and so on. */
export const ODD_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\ud83d',
  'x\udc00y',
  '\u202eevil\u202c',
  '\u200b\u200d\ufeff',
  'é́́́',
  '😟👩‍⚕️',
  '\\u0000',
  '%00',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  '\r\nX-Injected: 1',
] as const;

/** Values of the wrong type for any field. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, [], {}, '', [null], { a: 1 }),
  fc.constantFrom(...ODD_STRINGS),
  fc.integer(),
  fc.string({ maxLength: 8 }),
);

/** A string of this format, or an ordinary short one. */
function stringOf(def: ZodDef, known: readonly string[]): fc.Arbitrary<string> {
  const base = (() => {
    switch (def.format) {
      case 'uuid':
      case 'guid':
        return fc.uuid();
      case 'datetime':
        return fc
          .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      case 'date':
        return fc
          .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      case 'email':
        return fc.emailAddress();
      case 'url':
        return fc.webUrl();
      case undefined:
      default:
        return fc.string({ minLength: 1, maxLength: 12 });
    }
  })();
  return known.length > 0 ? fc.oneof(base, fc.constantFrom(...known)) : base;
}

/** A value the schema is likely to take (formats, enums, literals), shallow where it recurses. */
export function valueOf(
  schema: z.ZodType,
  known: readonly string[] = [],
  depth = 0,
): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (depth > 6) {
    return fc.constant(null);
  }
  const inner = (s: z.ZodType) => valueOf(s, known, depth + 1);
  switch (def.type) {
    case 'string':
      return stringOf(def, known);
    case 'number':
    case 'int':
      return fc.integer({ min: 0, max: 200 });
    case 'bigint':
      return fc.bigInt({ min: 0n, max: 100n }).map(String);
    case 'boolean':
      return fc.boolean();
    case 'date':
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return def.innerType ? inner(def.innerType) : fc.constant(undefined);
    case 'pipe':
      return def.in ? inner(def.in) : fc.jsonValue();
    case 'lazy':
      return def.getter ? inner(def.getter()) : fc.constant(null);
    case 'array':
      return def.element ? fc.array(inner(def.element), { maxLength: 3 }) : fc.constant([]);
    case 'tuple':
      return fc.tuple(...(def.items ?? []).map(inner));
    case 'union':
      return fc.oneof(...(def.options ?? []).map(inner));
    case 'intersection':
      return def.left && def.right
        ? fc
            .tuple(inner(def.left), inner(def.right))
            .map(([a, b]) =>
              typeof a === 'object' && typeof b === 'object' ? { ...a, ...b } : (a ?? b),
            )
        : fc.constant({});
    case 'record':
      return fc.dictionary(
        fc.string({ minLength: 1, maxLength: 6 }),
        def.valueType ? inner(def.valueType) : fc.jsonValue({ maxDepth: 1 }),
        { maxKeys: 3 },
      );
    case 'object': {
      const shape = def.shape ?? {};
      const entries = Object.entries(shape);
      if (entries.length === 0) {
        return fc.constant({});
      }
      const optional = new Set(
        entries
          .filter(([, field]) => {
            const type = defOf(field).type;
            return type === 'optional' || type === 'default' || type === 'prefault';
          })
          .map(([key]) => key),
      );
      return fc.record(Object.fromEntries(entries.map(([key, field]) => [key, inner(field)])), {
        requiredKeys: entries.map(([key]) => key).filter((key) => !optional.has(key)),
      });
    }
    default:
      // unknown, any, custom, transform, …: any JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Nested arrays or objects this many levels deep. */
const deeplyNested = (depth: number, object: boolean): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) {
    value = object ? { a: value } : [value];
  }
  return value;
};

export interface RawBody {
  /** The JSON text sent (a raw text can hold what JSON.stringify would not produce). */
  readonly text: string;
  readonly mutation: string;
}

/** A body: the schema's value, or one of the mutations of it, as JSON text. */
export function bodyOf(schema: z.ZodType, known: readonly string[]): fc.Arbitrary<RawBody> {
  const valid = valueOf(schema, known);
  const asObject = (v: unknown): Record<string, unknown> =>
    v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const text = (v: unknown) => JSON.stringify(v) ?? 'null';
  return fc.oneof(
    valid.map((v) => ({ text: text(v), mutation: 'valid' })),
    fc.tuple(valid, wrongValue, fc.nat()).map(([v, wrong, at]) => {
      const o = { ...asObject(v) };
      const keys = Object.keys(o);
      const key = keys.length > 0 ? (keys[at % keys.length] ?? 'x') : 'x';
      o[key] = wrong;
      return { text: text(o), mutation: `wrong type at ${key}` };
    }),
    fc.tuple(valid, fc.nat()).map(([v, at]) => {
      const o = { ...asObject(v) };
      const keys = Object.keys(o);
      const key = keys[at % Math.max(keys.length, 1)];
      if (key !== undefined) {
        delete o[key];
      }
      return { text: text(o), mutation: `missing ${key ?? '(none)'}` };
    }),
    fc
      .tuple(valid, fc.string({ minLength: 1, maxLength: 10 }), wrongValue)
      .map(([v, key, extra]) => ({
        text: text({ ...asObject(v), [key]: extra }),
        mutation: `extra field ${JSON.stringify(key)}`,
      })),
    fc.tuple(valid, fc.nat()).map(([v, at]) => {
      const o = { ...asObject(v) };
      const keys = Object.keys(o);
      const key = keys.length > 0 ? (keys[at % keys.length] ?? 'x') : 'x';
      o[key] = 'x'.repeat(200_000);
      return { text: text(o), mutation: `huge string at ${key}` };
    }),
    fc.tuple(valid, fc.nat(), fc.constantFrom(...ODD_STRINGS)).map(([v, at, odd]) => {
      const o = { ...asObject(v) };
      const keys = Object.keys(o);
      const key = keys.length > 0 ? (keys[at % keys.length] ?? 'x') : 'x';
      o[key] = odd;
      return { text: text(o), mutation: `odd string at ${key}: ${JSON.stringify(odd)}` };
    }),
    fc.tuple(valid, fc.boolean()).map(([v, object]) => ({
      text: text({ ...asObject(v), nested: deeplyNested(3000, object) }),
      mutation: `deep nesting (${object ? 'objects' : 'arrays'})`,
    })),
    valid.map((v) => {
      const inner = text(v);
      const body =
        inner.startsWith('{') && inner !== '{}'
          ? `{"__proto__":{"isAdmin":true,"roles":["admin"]},"constructor":{"prototype":{"polluted":1}},${inner.slice(1)}`
          : '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}';
      return { text: body, mutation: '__proto__ and constructor keys' };
    }),
    fc
      .constantFrom(
        '',
        'null',
        '[]',
        '"text"',
        '42',
        '{',
        '{"a":',
        '{"a":1,}',
        '\u0000',
        '{"a":"\\ud800"}',
        '{"a":"\\u0000"}',
      )
      .map((t) => ({ text: t, mutation: `malformed: ${JSON.stringify(t)}` })),
  );
}

/** A path parameter: the schema's value, or an odd, huge or encoded one. */
export function paramOf(schema: z.ZodType | undefined, known: readonly string[]) {
  const valid = schema ? valueOf(schema, known).map(String) : fc.string({ maxLength: 8 });
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    fc.constantFrom(...ODD_STRINGS.filter((s) => s !== '')),
    fc.constant('x'.repeat(5_000)),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }),
  );
}

/** A query: the schema's values, with mutations; as [key, value] pairs (keys may repeat). */
export function queryOf(
  schema: z.ZodType | undefined,
  known: readonly string[],
): fc.Arbitrary<[string, string][]> {
  const valid: fc.Arbitrary<[string, string][]> = schema
    ? valueOf(schema, known).map((v): [string, string][] =>
        Object.entries(v && typeof v === 'object' ? v : {}).flatMap(([k, value]) =>
          value === undefined
            ? []
            : Array.isArray(value)
              ? value.map((item): [string, string] => [k, String(item)])
              : [
                  [k, typeof value === 'object' ? JSON.stringify(value) : String(value)] as [
                    string,
                    string,
                  ],
                ],
        ),
      )
    : fc.constant([] as [string, string][]);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    fc
      .tuple(valid, fc.nat(), fc.constantFrom(...ODD_STRINGS))
      .map(([pairs, at, odd]): [string, string][] =>
        pairs.length > 0
          ? pairs.map(([k, v], i): [string, string] => [k, i === at % pairs.length ? odd : v])
          : [['q', odd]],
      ),
    valid.map((pairs): [string, string][] => [...pairs, ...pairs]),
    valid.map((pairs): [string, string][] => [
      ...pairs,
      ['__proto__', 'x'],
      ['constructor', 'y'],
      ['__proto__[admin]', 'true'],
    ]),
    valid.map((pairs): [string, string][] => pairs.map(([k]) => [k, 'x'.repeat(20_000)])),
  );
}
