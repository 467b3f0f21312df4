/** Strings of the conversation visualiser, verbatim from spec 3 §5 and §8. */
export const SHORT_ID_MESSAGE = 'Loading a conversation needs an id longer than 3 characters.';
export const memoryError = (error: string) => `Error loading conversation memory - ${error}`;
export const conversationNotFound = (error: string) => `Conversation not found - ${error}`;
export const SERVICE_UNAVAILABLE = 'Service unavailable';

/** An id is long enough to load when it has more than 3 characters (spec 3 §5). */
export const isLoadableId = (id: string) => id.trim().length > 3;

/** The visualiser's address for a conversation. */
export const viewerPath = (conversationId: string, tenant: string) =>
  `/conversations?${new URLSearchParams({ id: conversationId, tenant }).toString()}`;
