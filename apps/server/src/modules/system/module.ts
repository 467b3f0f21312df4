import fp from 'fastify-plugin';
import { recordAudit, requestOrigin } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { checkEmr } from './emr-check.ts';
import { createRedisStatsReader } from './redis-stats.ts';

/**
 * System administration (spec 3 §2 "System health", "Redis dashboard"): the tenant EMR check and
 * the Redis key statistics.
 */
export default fp(
  (app) => {
    const { config, db } = app;
    const emr = {
      db,
      servers: config.env.EMR_SERVERS,
      timeoutMs: config.env.EMR_TIMEOUT_SECONDS * 1000,
    };
    app.api.route('GET /internal/experiment/health/_emr_test', async (request) => {
      const tenant = request.headers['x-tenant-id'];
      const audit = (outcome: 'success' | 'failure', statusCode: number, details: object) =>
        recordAudit(
          db,
          {
            action: 'system.emr_test',
            outcome,
            actorId: request.user?.id ?? null,
            actorEmail: request.user?.email ?? null,
            resourceType: 'tenant',
            resourceId: tenant,
            statusCode,
            details: { ...details },
          },
          requestOrigin(request),
        );
      try {
        const result = await checkEmr(emr, tenant);
        await audit('success', 200, result);
        return result;
      } catch (error) {
        if (error instanceof AppError) {
          await audit('failure', error.statusCode, { message: error.message });
        }
        throw error;
      }
    });

    const redis = createRedisStatsReader(config.env.REDIS_URL);
    app.addHook('onClose', () => redis.close());
    app.api.route('GET /internal/sysadmin/redis/_stats', (request) => redis.read(request.query));
  },
  { name: 'system', dependencies: ['platform'] },
);
