import { isDerivedMessageId } from '@loopdesk/contracts/conversations.ts';
import {
  ConversationAddedData,
  ConversationEndedData,
  ConversationHandedBackData,
  ConversationSwitchedData,
  EXCEPTION_EVENTS,
  MessageAddedData,
  type ExceptionConversation,
} from '@loopdesk/contracts/exceptions.ts';
import type { CloudEvent } from '@loopdesk/contracts/realtime.ts';

/** The reviewer's conversations (the avatar queue) and the one on screen. */
export interface DeskState {
  readonly conversations: readonly ExceptionConversation[];
  readonly current: string | null;
}

export type DeskAction =
  | { readonly type: 'added'; readonly conversation: ExceptionConversation }
  | { readonly type: 'switched'; readonly conversationId: string }
  | { readonly type: 'removed'; readonly conversationId: string }
  | {
      readonly type: 'message';
      readonly conversationId: string;
      /** The patient wrote (not the reviewer, the assistant, nor a derived -DER note). */
      readonly fromPatient: boolean;
      /** The red flags the server found in the message (observation names, issue 20). */
      readonly redFlags?: readonly string[];
    }
  | {
      readonly type: 'synced';
      readonly conversations: readonly ExceptionConversation[];
      readonly current: string | null;
    }
  | { readonly type: 'reset' };

export const initialDesk: DeskState = { conversations: [], current: null };

/** The exception events of spec 2 §4 as state changes. Pure. */
export function deskReducer(state: DeskState, action: DeskAction): DeskState {
  switch (action.type) {
    case 'added': {
      const others = state.conversations.filter(
        (c) => c.conversationId !== action.conversation.conversationId,
      );
      return { ...state, conversations: [...others, action.conversation] };
    }
    case 'switched':
      // Conversation switched: the switched-to conversation is marked read.
      return {
        current: action.conversationId,
        conversations: state.conversations.map((c) =>
          c.conversationId === action.conversationId ? { ...c, read: true } : c,
        ),
      };
    case 'removed':
      // Conversation ended (or handed back): removed from the queue.
      return {
        current: state.current === action.conversationId ? null : state.current,
        conversations: state.conversations.filter(
          (c) => c.conversationId !== action.conversationId,
        ),
      };
    case 'message': {
      // Message added: the patient's marks the other conversation unread; its red flags mark the
      // conversation on the rail.
      const unread = action.conversationId !== state.current && action.fromPatient;
      const flags = action.redFlags ?? [];
      if (!unread && flags.length === 0) {
        return state;
      }
      return {
        ...state,
        conversations: state.conversations.map((c) =>
          c.conversationId === action.conversationId
            ? {
                ...c,
                ...(unread ? { read: false } : {}),
                ...(flags.length > 0
                  ? { redFlags: [...new Set([...(c.redFlags ?? []), ...flags])] }
                  : {}),
              }
            : c,
        ),
      };
    }
    case 'synced': {
      // A safety net after Resume: adds what an event may have missed, never drops what events
      // brought since the server answered.
      const known = new Set(state.conversations.map((c) => c.conversationId));
      return {
        conversations: [
          ...state.conversations,
          ...action.conversations.filter((c) => !known.has(c.conversationId)),
        ],
        current: state.current ?? action.current,
      };
    }
    case 'reset':
      return initialDesk;
  }
}

/** The desk action of a socket event, or null for events the desk does not track. */
export function deskActionOf(event: CloudEvent): DeskAction | null {
  switch (event.type) {
    case EXCEPTION_EVENTS.added: {
      const data = ConversationAddedData.safeParse(event.data);
      return data.success ? { type: 'added', conversation: data.data.conversation } : null;
    }
    case EXCEPTION_EVENTS.switched: {
      const data = ConversationSwitchedData.safeParse(event.data);
      return data.success ? { type: 'switched', conversationId: data.data.conversationId } : null;
    }
    case EXCEPTION_EVENTS.ended: {
      const data = ConversationEndedData.safeParse(event.data);
      return data.success ? { type: 'removed', conversationId: data.data.conversationId } : null;
    }
    case EXCEPTION_EVENTS.handedBack: {
      const data = ConversationHandedBackData.safeParse(event.data);
      return data.success ? { type: 'removed', conversationId: data.data.conversationId } : null;
    }
    case EXCEPTION_EVENTS.messageAdded: {
      const data = MessageAddedData.safeParse(event.data);
      if (!data.success) {
        return null;
      }
      const { conversationId, message } = data.data;
      return {
        type: 'message',
        conversationId,
        fromPatient: message.direction === 'IN' && !isDerivedMessageId(message.id),
        redFlags: (message.redFlags ?? []).map((flag) => flag.observation),
      };
    }
    default:
      return null;
  }
}

/** Initials for a patient's avatar. */
export function initialsOf(name: { given: string; family: string }): string {
  return `${name.given.charAt(0)}${name.family.charAt(0)}`.toUpperCase() || '?';
}
