import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorAnswer, json, makeUser, type FakeRequest } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { NO_REDIS_MESSAGE } from './redis-route.tsx';

vi.setConfig({ testTimeout: 20_000 });

const ADMIN = makeUser(['admin', 'sysadmin'], { id: 'user-ada', displayName: 'Ada' });
const SLOW = { timeout: 10_000 };

describe('EMR check', () => {
  it("sends the tenant as X-Tenant-ID and shows 'Complete with status {n}'", async () => {
    const tenants: (string | null)[] = [];
    const { events } = renderApp({
      path: '/admin/system/health',
      user: ADMIN,
      routes: {
        'GET /internal/experiment/health/_emr_test': (request: FakeRequest) => {
          tenants.push(request.headers.get('X-Tenant-ID'));
          return json(200, {
            status: 200,
            tenant: 'acme',
            emr: 'fhir-r4',
            url: 'https://fhir.acme.example/r4/metadata',
            tookMs: 42,
            fhirVersion: '4.0.1',
          });
        },
      },
    });
    const field = await screen.findByRole('textbox', { name: 'Tenant id' }, SLOW);
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('EMR Check'),
    );
    expect(screen.getByRole('button', { name: 'Run check' })).toBeDisabled();
    await events.type(field, 'acme{Enter}');
    expect(await screen.findByText('Complete with status 200')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Checked FHIR R4 server https://fhir.acme.example/r4/metadata in 42 ms, FHIR 4.0.1.',
      ),
    ).toBeInTheDocument();
    expect(tenants).toEqual(['acme']);
  });

  it('shows the error and status -1 when the check fails', async () => {
    const { events } = renderApp({
      path: '/admin/system/health',
      user: ADMIN,
      routes: {
        'GET /internal/experiment/health/_emr_test': () =>
          errorAnswer(404, 'Not Found', "No EMR for the tenant 'nowhere'."),
      },
    });
    await events.type(await screen.findByRole('textbox', { name: 'Tenant id' }, SLOW), 'nowhere');
    await events.click(screen.getByRole('button', { name: 'Run check' }));
    expect(await screen.findByText('Complete with status -1')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      "Not Found - No EMR for the tenant 'nowhere'.",
    );
  });
});

describe('Redis dashboard', () => {
  it('lists keys with memory in bytes and the key count, and pages on', async () => {
    const cursors: (string | null)[] = [];
    const { events } = renderApp({
      path: '/admin/system/redis',
      user: ADMIN,
      routes: {
        'GET /internal/sysadmin/redis/_stats': (request: FakeRequest) => {
          const cursor = request.query.get('cursor');
          cursors.push(cursor);
          return json(
            200,
            cursor === '0'
              ? {
                  stats: { keys: { 'loopdesk:a': 56, 'loopdesk:b': 2048 } },
                  configured: true,
                  keyCount: 3,
                  nextCursor: '17',
                }
              : {
                  stats: { keys: { 'loopdesk:c': 72 } },
                  configured: true,
                  keyCount: 3,
                  nextCursor: null,
                },
          );
        },
      },
    });
    const table = await screen.findByRole('table', { name: 'Redis keys' }, SLOW);
    expect(screen.getByText('3 keys')).toBeInTheDocument();
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'KeyMemory (bytes)',
      'loopdesk:b2,048',
      'loopdesk:a56',
    ]);
    await events.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await within(table).findByText('loopdesk:c')).toBeInTheDocument();
    expect(screen.getByText('Page 2 (last)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await events.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(within(table).getByText('loopdesk:a')).toBeInTheDocument());
    expect(cursors.slice(0, 2)).toEqual(['0', '17']);
  });

  it('says plainly when the node runs without Redis, and why Redis matters', async () => {
    renderApp({
      path: '/admin/system/redis',
      user: ADMIN,
      routes: {
        'GET /internal/sysadmin/redis/_stats': () =>
          json(200, { stats: { keys: {} }, configured: false, keyCount: 0, nextCursor: null }),
      },
    });
    expect(await screen.findByText(NO_REDIS_MESSAGE, {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
