/**
 * The `{base64 of user id}` of the user routes (spec 1 §7), for an id or an email; UTF-8 first,
 * so an address with non-Latin letters encodes as the server decodes it.
 */
export function userKey(idOrEmail: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(idOrEmail.trim())) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary);
}
