import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_RECOGNISED_CLASSES } from '@loopdesk/clinical/nlp/recognise.ts';
import {
  evaluateText,
  toAutomatedRecognition,
  toRecognitionState,
} from '@loopdesk/clinical/nlp/evaluate.ts';
import { NLP_CONTENT_TYPE, NLP_MEDIA_TYPE, NLP_VERSION } from '@loopdesk/contracts/nlp.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { AppError, awaitBuild, badRequest } from '../../platform/errors.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';

interface MediaRange {
  type: string;
  version: string | undefined;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim());
      let version: string | undefined;
      let q = 1;
      for (const param of params) {
        const [key = '', raw = ''] = param.split('=').map((x) => x.trim());
        const value = raw.replace(/^"|"$/g, '');
        if (key.toLowerCase() === 'version') {
          version = value;
        } else if (key.toLowerCase() === 'q') {
          q = Number(value);
        }
      }
      return { type: type.toLowerCase(), version, q };
    })
    .filter((range) => range.type !== '' && !(range.q <= 0))
    .map(({ type, version }) => ({ type, version }));
}

/**
 * Whether the caller accepts the NLP service's answer: no Accept, `application/json`, `*\/*`,
 * `application/*`, or the versioned media type with version 0.1.0 (or no version).
 * Returns the refusal message otherwise.
 */
export function nlpAcceptRefusal(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === '') {
    return undefined;
  }
  const ranges = parseAccept(header);
  const ok = ranges.some(
    (r) =>
      r.type === '*/*' ||
      r.type === 'application/*' ||
      r.type === 'application/json' ||
      (r.type === NLP_MEDIA_TYPE && (r.version === undefined || r.version === NLP_VERSION)),
  );
  if (ok) {
    return undefined;
  }
  const asked = ranges.find((r) => r.type === NLP_MEDIA_TYPE && r.version !== undefined);
  return asked
    ? `The NLP service speaks version ${NLP_VERSION}, not ${asked.version}: send Accept: ${NLP_CONTENT_TYPE} (or application/json).`
    : `The NLP service answers ${NLP_CONTENT_TYPE} (version ${NLP_VERSION}) or application/json; Accept '${header}' allows neither.`;
}

/** Refuses an unsupported Accept before the body is validated: 406 in the one error shape. */
async function checkAccept(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const refusal = nlpAcceptRefusal(request.headers.accept);
  if (refusal !== undefined) {
    // 406 is not among the AppError statuses of contracts/errors.ts, so it is sent here.
    await reply.status(406).send({ error: 'Not Acceptable', message: refusal });
  }
}

/**
 * The NLP service (spec 1 §7, spec 2 §3 and §7, spec 3 §3): entity recognition, normalisation
 * and the evaluation call, versioned through the Accept header.
 */
export function registerNlpRoutes(
  api: ApiRouter,
  knowledge: Knowledge,
  options: { maxTextChars: number },
): void {
  const { recogniser, index } = knowledge;
  const { maxTextChars } = options;

  const checkLength = (length: number, what = 'The text is'): void => {
    if (length > maxTextChars) {
      throw new AppError(
        413,
        `${what} ${length} characters long; the NLP service takes at most ${maxTextChars} characters (NLP_MAX_TEXT_CHARS).`,
      );
    }
  };
  const versioned = (reply: FastifyReply) => reply.header('content-type', NLP_CONTENT_TYPE);
  // A large knowledge base is indexed and its recogniser built in the background (issue 22): the
  // calls wait for what they read rather than finishing the build on the event loop.
  const recogniserBuilt = () => awaitBuild(recogniser.ready, 'Entity recognition');
  const searchBuilt = () => awaitBuild(index.ready, 'Concept search');

  api.route(
    'POST /internal/nlp/entities',
    {
      preValidation: checkAccept,
    },
    async (request, reply) => {
      const { text } = request.body;
      const { resolve } = request.query;
      checkLength(text.length);
      await recogniserBuilt();
      const result = toAutomatedRecognition(evaluateText(text, recogniser), recogniser);
      versioned(reply);
      return resolve ? result : { entities: result.entities.map((e) => ({ ...e, concepts: [] })) };
    },
  );

  api.route(
    'POST /internal/nlp/normalise',
    {
      preValidation: checkAccept,
    },
    async (request, reply) => {
      const { body } = request;
      if (body.entities === undefined) {
        const text = (body.text ?? '').trim();
        if (text === '') {
          throw badRequest('The text is empty: send the text to normalise.', [
            { path: 'body.text', message: 'must not be empty' },
          ]);
        }
        checkLength(body.text?.length ?? 0);
        await recogniserBuilt();
        versioned(reply);
        return {
          entities: evaluateText(body.text ?? '', recogniser)
            .entities.filter((e) => e.category !== 'onset')
            .map((e) => ({
              extract: e.original,
              start: e.start,
              end: e.end,
              concepts: e.normalised,
            })),
        };
      }
      const total = body.entities.reduce((sum, e) => sum + e.extract.length, 0);
      checkLength(total, 'The extracts together are');
      await searchBuilt();
      await recogniserBuilt();
      versioned(reply);
      return {
        entities: body.entities.map((entity) => {
          // An extract is one whole name: ranked concept search first, recognition as a fallback.
          const found = index.search(entity.extract, {
            classes: DEFAULT_RECOGNISED_CLASSES,
            limit: 5,
          });
          const concepts =
            found.length > 0
              ? found.map((r, i) => ({
                  id: r.conceptId,
                  display: r.canonicalName,
                  class: r.class,
                  bestMatch: i === 0,
                }))
              : evaluateText(entity.extract, recogniser).entities.flatMap((e) => e.normalised);
          return {
            extract: entity.extract,
            ...(entity.start === undefined ? {} : { start: entity.start }),
            ...(entity.end === undefined ? {} : { end: entity.end }),
            concepts,
          };
        }),
      };
    },
  );

  api.route(
    'POST /internal/nlp/evaluate',
    {
      preValidation: checkAccept,
    },
    async (request, reply) => {
      const { text } = request.body;
      checkLength(text.length);
      await recogniserBuilt();
      const result = evaluateText(text, recogniser);
      versioned(reply);
      return { ...result, resolved: toRecognitionState(result) };
    },
  );
}
