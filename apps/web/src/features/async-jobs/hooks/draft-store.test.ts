import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDraftStore, DRAFT_SAVE_DELAY_MS } from './draft-store.ts';

const params = { pipelineId: '11', step: 'symptoms_approval', taskId: 't1' };

describe('draft store (issue 20 point 17)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the fields after a pause, once for a burst of edits', async () => {
    const save = vi.fn(() => Promise.resolve());
    const store = createDraftStore(params, {}, save);
    expect(store.dirty()).toBe(false);
    store.record('removed', ['s1']);
    store.record('removed', ['s1', 's2']);
    expect(store.dirty()).toBe(true);
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith(params, { removed: ['s1', 's2'] });
  });

  it('starts dirty from a restored draft and keeps its other fields', async () => {
    const save = vi.fn(() => Promise.resolve());
    const store = createDraftStore(params, { added: [{ text: 'rash' }] }, save);
    expect(store.dirty()).toBe(true);
    store.record('removed', ['s1']);
    await store.flush();
    expect(save).toHaveBeenCalledWith(params, { added: [{ text: 'rash' }], removed: ['s1'] });
  });

  it('writes nothing once the task is published or discarded, and leaving no longer asks', async () => {
    const save = vi.fn(() => Promise.resolve());
    const store = createDraftStore(params, {}, save);
    store.record('removed', ['s1']);
    store.finish();
    expect(store.dirty()).toBe(false);
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS * 2);
    await store.flush();
    expect(save).not.toHaveBeenCalled();
  });

  it('tries a failed write again at the next flush', async () => {
    const save = vi
      .fn<(...args: unknown[]) => Promise<void>>()
      .mockRejectedValueOnce(new Error('409'))
      .mockResolvedValue(undefined);
    const store = createDraftStore(params, {}, save);
    store.record('intent', 'injury');
    await store.flush();
    await store.flush();
    expect(save).toHaveBeenCalledTimes(2);
  });
});
