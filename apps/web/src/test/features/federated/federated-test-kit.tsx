import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JobEventType } from '@loopdesk/contracts/realtime.ts';
import { expect } from 'vitest';
import { ToastProvider } from '../../../components/toast-provider.tsx';
import { setSession } from '../../../lib/auth/session-store.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { fakeWebSockets, type FakeSocket } from '../../fake-web-socket.ts';
import {
  installFakeServer,
  json,
  makeUser,
  signedInRoutes,
  type FakeHandler,
} from '../../fake-server.ts';
import { FederatedRoute } from '../../../features/federated/routes/federated-route.tsx';

/** Test helpers of the federated screen: a signed-in screen, a fake socket playing the server. */

export const JOB_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const user = makeUser(['annotator']);

/** Plays the server on the socket. */
export const server = (fn: () => void) => act(fn);

/** Renders the screen, connects, resumes, and hands it `data` as a `type` job. */
export async function holding(
  type: JobEventType,
  data: Record<string, unknown>,
  routes: Record<string, FakeHandler> = {},
) {
  const fetchMock = installFakeServer({
    ...signedInRoutes(user),
    'GET /internal/sessions/_count': () => json(200, { federated: 1, exception: 0 }),
    ...routes,
  });
  setSession({
    status: 'signed-in',
    accessToken: 'token-ann',
    expiresAt: Date.now() + 15 * 60_000,
    refreshedAt: Date.now(),
    user,
  });
  const fake = fakeWebSockets();
  const events = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <FederatedRoute WebSocket={fake.WebSocket} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  // The screen also opens the priority socket; the job comes on the federated one.
  await waitFor(() => expect(fake.sockets.some((s) => s.url.endsWith('/ws/federated'))).toBe(true));
  const socket = fake.sockets.find((s) => s.url.endsWith('/ws/federated')) as FakeSocket;
  server(() => socket.accept());
  await events.click(screen.getByRole('button', { name: 'Resume' }));
  server(() => socket.receive(type, { jobId: JOB_ID, tenant: 'acme', ...data }, 'job-event-1'));
  return { socket, events, fetchMock };
}

/** The submissions of one type the portal sent. */
export const submissions = (socket: FakeSocket, type: string) =>
  socket.events().filter((event) => event.type === type);

export { select, turn } from '../../panel-test-kit.tsx';
