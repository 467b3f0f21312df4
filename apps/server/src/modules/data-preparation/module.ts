import fp from 'fastify-plugin';
import { registerDocumentsApi, registerDataPreparationRoutes } from './routes.ts';
import { createReviewService } from './review.ts';
import { seedDemoDocuments } from './demo.ts';
import { createDataPreparationService } from './service.ts';
import { documentStoreFor } from './store.ts';
import { registerBodyParsers } from './uploads.ts';

/**
 * Data preparation of guideline documents (spec 2 §2, §4, §5, §7; issue 12): documents come in
 * through `POST /api/v1/documents` or the screen's upload, become jobs in status REGISTERED, and
 * are prepared, reviewed (four eyes) and approved or rejected. Files live in the document store:
 * PostgreSQL by default, an S3-compatible store by configuration (docs/data-preparation.md).
 */
export default fp(
  async (app) => {
    const { db, config, knowledge } = app;
    const maxBytes = config.env.DOCUMENT_MAX_BYTES;
    const store = documentStoreFor(config.env, db);
    const service = createDataPreparationService({ db, store, knowledge });
    const review = createReviewService({ db, service });
    await registerBodyParsers(app, maxBytes);
    registerDataPreparationRoutes(app.api, {
      service,
      review,
      maxBytes,
      leaseMs: config.env.JOB_LEASE_SECONDS * 1000,
    });
    registerDocumentsApi(app.integration, { service, maxBytes });
    if (config.env.DEMO && config.devSignIn) {
      const seeded = await seedDemoDocuments({ db, service, knowledge });
      if (seeded > 0) {
        app.log.info({ documents: seeded }, 'seeded demo guideline documents');
      }
    }
  },
  { name: 'data-preparation', dependencies: ['platform', 'knowledge', 'integration'] },
);
