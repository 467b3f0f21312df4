import { DocumentUploadFields } from '@loopdesk/contracts/data-preparation.ts';
import type { ApiRouter, ApiV1Registrar } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { signedInUser } from '../../platform/auth/guard.ts';
import { badRequest } from '../../platform/errors.ts';
import type { ReviewService } from './review.ts';
import type { Actor, DataPreparationService } from './service.ts';
import { multipartValidator, readUpload } from './uploads.ts';

/** The `/internal/data-preparation` routes of spec 2 §7, with 'Get next job' and the upload. */
export function registerDataPreparationRoutes(
  api: ApiRouter,
  deps: {
    service: DataPreparationService;
    review: ReviewService;
    maxBytes: number;
    leaseMs: number;
  },
): void {
  const { service, review, maxBytes, leaseMs } = deps;

  api.route('GET /internal/data-preparation/metadata/_size', async (request) => ({
    size: await service.size(request.query.status),
  }));

  api.route('GET /internal/data-preparation/metadata/summary', async (request) => ({
    items: await service.summary(
      request.query.status,
      signedInUser(request),
      requestOrigin(request),
    ),
  }));

  api.route('GET /internal/data-preparation/metadata/_next', async (request) =>
    service.next(signedInUser(request), requestOrigin(request), leaseMs),
  );

  api.route('GET /internal/data-preparation/metadata/:id', async (request) =>
    service.get(request.params.id, signedInUser(request), requestOrigin(request)),
  );

  api.route('POST /internal/data-preparation/metadata', async (request) =>
    review.save(request.body, signedInUser(request), requestOrigin(request)),
  );

  api.route('GET /internal/data-preparation/document/text/:id', async (request, reply) => {
    const text = await service.text(
      request.params.id,
      signedInUser(request),
      requestOrigin(request),
    );
    return reply.type('text/plain; charset=utf-8').send(text);
  });

  api.route('GET /internal/data-preparation/document/pdf/:id', async (request, reply) => {
    const bytes = await service.pdf(
      request.params.id,
      signedInUser(request),
      requestOrigin(request),
    );
    return reply
      .type('application/pdf')
      .header('content-disposition', 'inline')
      .send(Buffer.from(bytes));
  });

  api.route('POST /internal/data-preparation/document/:name', async (request, reply) => {
    const reference = await review.storePrepared(
      request.params.name,
      request.body,
      signedInUser(request),
      requestOrigin(request),
    );
    return reply.status(201).send(reference);
  });

  api.route('GET /internal/data-preparation/reference/:id', async (request) =>
    service.reference(request.params.id, signedInUser(request), requestOrigin(request)),
  );

  api.route('GET /internal/data-preparation/query/:view', async (request) => ({
    results: await service.query(request.query.q),
  }));

  api.route(
    'POST /internal/data-preparation/documents',
    { validatorCompiler: multipartValidator },
    async (request, reply) => {
      const actor = signedInUser(request);
      const upload = await service.audited(
        'document.registered',
        actor,
        null,
        requestOrigin(request),
        () => readUpload(request, maxBytes),
      );
      const registered = await service.register(
        {
          fileName: upload.fileName,
          bytes: upload.bytes,
          name: upload.fields.name,
          source: upload.fields.source,
          via: 'upload',
        },
        actor,
        requestOrigin(request),
      );
      return reply.status(201).send(registered);
    },
  );
}

/**
 * `POST /api/v1/documents`: the assistant (or any system with an API key) registers a guideline
 * document, a PDF or UTF-8 text with its name and source, as multipart/form-data.
 */
export function registerDocumentsApi(
  v1: ApiV1Registrar,
  deps: { service: DataPreparationService; maxBytes: number },
): void {
  v1.registerApiV1(
    'POST /api/v1/documents',
    {
      validatorCompiler: multipartValidator,
      docs: {
        tags: ['documents'],
        summary: 'Register a guideline document for data preparation (PDF or UTF-8 text)',
        description: `multipart/form-data with the fields name and source, then the file (a PDF or UTF-8 text, found by its content whatever its name; at most DOCUMENT_MAX_BYTES, ${deps.maxBytes} bytes here). The document becomes a data preparation job in status REGISTERED; its text is extracted page by page.`,
      },
    },
    async (request, reply) => {
      const actor: Actor = { id: `api-key:${v1.apiKeyName(request)}`, email: null, roles: [] };
      const origin = requestOrigin(request);
      const { upload, fields } = await deps.service.audited(
        'document.registered',
        actor,
        null,
        origin,
        async () => {
          const read = await readUpload(request, deps.maxBytes);
          return { upload: read, fields: uploadFields(read.fields) };
        },
      );
      const registered = await deps.service.register(
        { fileName: upload.fileName, bytes: upload.bytes, ...fields, via: 'api' },
        actor,
        origin,
      );
      return reply.status(201).send(registered);
    },
  );
}

/** The API's form fields: a name and a source are required (the screen asks for them later). */
function uploadFields(fields: Readonly<Record<string, string>>): { name: string; source: string } {
  const parsed = DocumentUploadFields.omit({ file: true }).safeParse(fields);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      path: `body.${issue.path.join('.')}`,
      message: issue.message,
    }));
    throw badRequest(
      `The document needs its name and source: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}.`,
      details,
    );
  }
  return parsed.data;
}
