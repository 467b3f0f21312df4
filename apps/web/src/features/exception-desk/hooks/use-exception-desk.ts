import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { MANUAL_REPLY_TYPE, type EndType } from '@loopdesk/contracts/conversations.ts';
import {
  EXCEPTION_EVENTS,
  EXCEPTION_REQUESTS,
  ManualRespondedData,
  type ExceptionConversation,
} from '@loopdesk/contracts/exceptions.ts';
import type { CloudEvent } from '@loopdesk/contracts/realtime.ts';
import { useToast } from '../../../components/toast-context.ts';
import { useErrorToast } from '../../../components/use-error-toast.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import type { SocketConstructor } from '../../../lib/socket/technician-socket.ts';
import {
  useTechnicianSession,
  type TechnicianSession,
} from '../../../lib/socket/use-technician-session.ts';
import { getQueued } from '../api/get-queued.ts';
import { deskActionOf, deskReducer, initialDesk, type DeskState } from '../utils/desk-state.ts';

export interface ExceptionDesk extends DeskState {
  readonly session: TechnicianSession;
  /** The conversation on screen, if any. */
  readonly conversation: ExceptionConversation | null;
  /** Bumped by each message event of the conversation on screen: the transcript looks at once. */
  readonly messageTick: number;
  /** Bumped when a manual reply was stored: the input clears. */
  readonly repliedTick: number;
  resume(): void;
  /** Spec 2 §4: Pause closes the connection and clears everything. */
  pause(): void;
  switchTo(conversationId: string): void;
  /** Sends a manual reply; false (nothing sent) when it is empty (spec 2 §5). */
  reply(text: string, replyTo?: string): boolean;
  handBack(conversationId: string): void;
  end(conversationId: string, type: EndType, appointmentId?: string): void;
}

/** The toast after a handback (issue 20): who is back with the assistant. */
export function handedBackText(conversation: ExceptionConversation): string {
  const name = `${conversation.name.given} ${conversation.name.family}`.trim();
  return `${name} is back with the assistant.`;
}

/**
 * The exception session (spec 2 §4): the technician socket of the exceptions source, the avatar
 * queue kept from the exception events, and the reviewer's requests (switch, manual response,
 * handback, end).
 */
export function useExceptionDesk(options: { WebSocket?: SocketConstructor } = {}): ExceptionDesk {
  const toast = useToast();
  const [desk, dispatch] = useReducer(deskReducer, initialDesk);
  const [messageTick, setMessageTick] = useState(0);
  const [repliedTick, setRepliedTick] = useState(0);
  const current = desk.current;
  const currentRef = useRef<string | null>(null);
  useEffect(() => {
    currentRef.current = current;
  }, [current]);
  // The names of the conversations held, for the handback's toast after they leave the rail.
  const conversationsRef = useRef(desk.conversations);
  useEffect(() => {
    conversationsRef.current = desk.conversations;
  }, [desk.conversations]);

  const onEvent = useCallback(
    (event: CloudEvent) => {
      const action = deskActionOf(event);
      if (action?.type === 'removed' && event.type === EXCEPTION_EVENTS.handedBack) {
        const handed = conversationsRef.current.find(
          (c) => c.conversationId === action.conversationId,
        );
        if (handed) {
          toast.success(handedBackText(handed));
        }
      }
      if (action) {
        dispatch(action);
        if (action.type === 'message' && action.conversationId === currentRef.current) {
          setMessageTick((tick) => tick + 1);
        }
      }
      if (event.type === EXCEPTION_EVENTS.manualResponded) {
        const data = ManualRespondedData.safeParse(event.data);
        if (data.success) {
          setRepliedTick((tick) => tick + 1);
          setMessageTick((tick) => tick + 1);
        }
      }
    },
    [toast],
  );

  const session = useTechnicianSession('exceptions', {
    ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}),
    onEvent,
    lazy: true,
  });
  // The session reports socket and server errors; the desk shows them (spec 2 §8).
  useErrorToast(session.error);

  // A closed connection clears everything: the server has given the conversations to others.
  useEffect(() => {
    if (session.status !== 'on') {
      dispatch({ type: 'reset' });
    }
  }, [session.status]);

  // After Resume, the server's view of the reviewer's conversations settles any event missed.
  const resumed = session.status === 'on' && session.state !== 'paused';
  useEffect(() => {
    if (!resumed) {
      return undefined;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getQueued(controller.signal)
        .then((queued) =>
          dispatch({ type: 'synced', conversations: queued.items, current: queued.current }),
        )
        .catch((error: unknown) => {
          if (!controller.signal.aborted) {
            toast.error(errorMessage(error));
          }
        });
    }, 500);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [resumed, toast]);

  const conversation = desk.conversations.find((c) => c.conversationId === current) ?? null;

  return {
    ...desk,
    session,
    conversation,
    messageTick,
    repliedTick,
    resume: () => session.resume(),
    pause: () => {
      session.disconnect();
      dispatch({ type: 'reset' });
    },
    switchTo: (conversationId) => {
      session.send(EXCEPTION_REQUESTS.switch, { conversationId });
    },
    reply: (text, replyTo) => {
      const message = text.trim();
      if (message.length === 0 || !conversation) {
        return false;
      }
      return (
        session.send(EXCEPTION_REQUESTS.manualResponse, {
          conversationId: conversation.conversationId,
          recipientId: conversation.userId,
          ...(replyTo ? { replyTo } : {}),
          message,
          replyType: MANUAL_REPLY_TYPE,
        }) !== false
      );
    },
    handBack: (conversationId) => {
      session.send(EXCEPTION_REQUESTS.handback, { conversationId });
    },
    end: (conversationId, type, appointmentId) => {
      session.send(EXCEPTION_REQUESTS.end, {
        conversationId,
        type,
        ...(appointmentId ? { appointmentId } : {}),
      });
    },
  };
}
