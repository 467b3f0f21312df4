import type { RegisteredDocument } from '@loopdesk/contracts/data-preparation.ts';
import { RegisteredDocument as RegisteredDocumentSchema } from '@loopdesk/contracts/data-preparation.ts';
import { callRoute } from '../../../lib/api-client.ts';
import { getAccessToken } from '../../../lib/auth/session-store.ts';
import { HttpError, httpErrorFrom } from '../../../lib/http-error.ts';

const authHeaders = (): Record<string, string> => {
  const token = getAccessToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
};

/**
 * Stores a prepared text (`POST …/document/{name}`, text/plain, spec 2 §7): not JSON, so not
 * through callRoute.
 */
export async function storePreparedText(name: string, text: string): Promise<void> {
  const response = await fetch(`/internal/data-preparation/document/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { ...authHeaders(), 'Content-Type': 'text/plain; charset=utf-8' },
    body: text,
    credentials: 'same-origin',
  });
  if (!response.ok) {
    throw await httpErrorFrom(response);
  }
}

/**
 * Where a job's original or a prepared file loads: `reference/{id}` answers a url; a portal
 * address needs the token, so it is fetched and handed back as a blob URL (revoke it after use).
 */
export async function loadReference(id: string): Promise<{ url: string; blob: boolean }> {
  const { url } = await callRoute('GET', '/internal/data-preparation/reference/:id', {
    params: { id },
  });
  if (!url.startsWith('/')) {
    return { url, blob: false };
  }
  const response = await fetch(url, { headers: authHeaders(), credentials: 'same-origin' });
  if (!response.ok) {
    throw await httpErrorFrom(response);
  }
  return { url: URL.createObjectURL(await response.blob()), blob: true };
}

/** The text of a job's original (read-only left half) or of a prepared file. */
export async function loadText(id: string): Promise<string> {
  const response = await fetch(
    `/internal/data-preparation/document/text/${encodeURIComponent(id)}`,
    {
      headers: authHeaders(),
      credentials: 'same-origin',
    },
  );
  if (!response.ok) {
    throw await httpErrorFrom(response);
  }
  return response.text();
}

/**
 * Uploads an original (multipart, `POST …/documents`) with XMLHttpRequest, whose upload events
 * drive the progress bar (fetch has none).
 */
export function uploadDocument(
  file: File,
  onProgress: (fraction: number) => void,
): Promise<RegisteredDocument> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/internal/data-preparation/documents');
    for (const [name, value] of Object.entries(authHeaders())) {
      request.setRequestHeader(name, value);
    }
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) {
        onProgress(event.loaded / event.total);
      }
    };
    request.onerror = () =>
      reject(new HttpError(0, undefined, 'The upload failed: network error.'));
    request.onload = () => {
      const body = request.responseText;
      if (request.status === 201) {
        resolve(RegisteredDocumentSchema.parse(JSON.parse(body)));
        return;
      }
      void httpErrorFrom(new Response(body, { status: request.status })).then(reject, reject);
    };
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}
