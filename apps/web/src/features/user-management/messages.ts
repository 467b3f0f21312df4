/** Spec 3 §8 "User not found" (two dots, as the spec writes it). */
export const userNotFoundMessage = (key: string) => `No one found with that key ${key}..`;
/** Spec 3 §8 "Permissions save" success. */
export const SAVED_MESSAGE = 'Saved.';
/** Spec 3 §8 "Permissions save" failure. */
export const SAVE_FAILED_MESSAGE = 'Error updating, try again later.';
