import { useCallback, useEffect, useRef, useState } from 'react';
import {
  MESSAGES_TAIL_POLL_MS,
  conversationNotFound,
  type ConversationMessage,
} from '@loopdesk/contracts/conversations.ts';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { getMessages } from '../api/get-messages.ts';

export interface Transcript {
  readonly messages: readonly ConversationMessage[];
  /** Messages in the conversation, as the server counts them. */
  readonly total: number;
  readonly loading: boolean;
  /** 'Conversation not found - {error}' when the transcript could not be loaded. */
  readonly error: string | null;
  /** Older pages remain. */
  readonly hasEarlier: boolean;
  loadEarlier(): void;
}

interface Loaded {
  conversationId: string;
  messages: ConversationMessage[];
  total: number;
  pages: number;
  error: string | null;
}

/** Adds messages the transcript does not hold yet, keeping the server's order. */
function merge(
  held: readonly ConversationMessage[],
  incoming: readonly ConversationMessage[],
  where: 'before' | 'after',
): ConversationMessage[] {
  const ids = new Set(held.map((m) => m.id));
  const fresh = incoming.filter((m) => !ids.has(m.id));
  return where === 'before' ? [...fresh, ...held] : [...held, ...fresh];
}

/**
 * The live transcript of a conversation (spec 2 §2, §9): the newest page of 10 first, earlier
 * pages on demand, and the tail after the newest message every 2 s (or at once on `tick`).
 */
export function useTranscript(
  conversationId: string | null,
  tenant: string | null,
  tick: number,
): Transcript {
  const toast = useToast();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const loadedRef = useRef<Loaded | null>(null);
  const update = useCallback((next: Loaded | null) => {
    loadedRef.current = next;
    setLoaded(next);
  }, []);

  const fail = useCallback(
    (id: string, error: unknown) => {
      const message = conversationNotFound(errorMessage(error));
      toast.error(message);
      const current = loadedRef.current;
      update({
        conversationId: id,
        messages: current?.conversationId === id ? current.messages : [],
        total: current?.conversationId === id ? current.total : 0,
        pages: current?.conversationId === id ? current.pages : 0,
        error: message,
      });
    },
    [toast, update],
  );

  /** The newest page, or the tail after the newest message held. */
  const refresh = useCallback(
    async (id: string, owner: string, signal: AbortSignal) => {
      const current = loadedRef.current?.conversationId === id ? loadedRef.current : null;
      const last = current?.messages.at(-1)?.id;
      const page = await getMessages(id, last ? { last } : { page: 0 }, owner, signal);
      if (signal.aborted) {
        return;
      }
      const held = loadedRef.current?.conversationId === id ? loadedRef.current : null;
      const items = last ? page.items : [...page.items].reverse();
      update({
        conversationId: id,
        messages: merge(held?.messages ?? [], items, 'after'),
        total: page.page.total,
        pages: Math.max(held?.pages ?? 0, last ? 0 : 1),
        error: null,
      });
    },
    [update],
  );

  useEffect(() => {
    if (!conversationId || !tenant) {
      return undefined;
    }
    const controller = new AbortController();
    let polling = false;
    const poll = () => {
      if (polling) {
        return;
      }
      polling = true;
      refresh(conversationId, tenant, controller.signal)
        .catch((error: unknown) => {
          if (!controller.signal.aborted) {
            fail(conversationId, error);
          }
        })
        .finally(() => {
          polling = false;
        });
    };
    poll();
    const timer = setInterval(poll, MESSAGES_TAIL_POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [conversationId, tenant, tick, refresh, fail]);

  const loadEarlier = useCallback(() => {
    const current = loadedRef.current;
    if (!current || !tenant) {
      return;
    }
    getMessages(current.conversationId, { page: current.pages }, tenant)
      .then((page) => {
        const held = loadedRef.current;
        if (held?.conversationId !== current.conversationId) {
          return;
        }
        update({
          ...held,
          messages: merge(held.messages, [...page.items].reverse(), 'before'),
          pages: held.pages + 1,
          total: page.page.total,
        });
      })
      .catch((error: unknown) => fail(current.conversationId, error));
  }, [tenant, fail, update]);

  const mine = loaded?.conversationId === conversationId ? loaded : null;
  return {
    messages: mine?.messages ?? [],
    total: mine?.total ?? 0,
    loading: conversationId !== null && mine === null,
    error: mine?.error ?? null,
    hasEarlier: mine !== null && mine.messages.length < mine.total,
    loadEarlier,
  };
}
