// What a relay_task_id may look like. It is signed into receipts, stored, and put into the relay's URL path
// (`/agent/<id>/task/<relay_task_id>`), where "." or ".." would move the lookup to another route. The reference
// relay's ids are crypto.randomUUID(); this alphabet admits those and ordinary ids ("relay-task-1", "fed:ab.c_2").
export const RELAY_TASK_ID_MAX_LENGTH = 128;
const ALPHABET = /^[A-Za-z0-9._:-]+$/;

/** Why `id` is not an acceptable relay_task_id, or null when it is. */
export function relayTaskIdProblem(id: string): string | null {
  if (id.length === 0) return "relay_task_id is empty";
  if (id.length > RELAY_TASK_ID_MAX_LENGTH) return `relay_task_id is longer than ${RELAY_TASK_ID_MAX_LENGTH} characters`;
  if (!ALPHABET.test(id)) return "relay_task_id may hold only letters, digits and . _ : -";
  if (id === "." || id === "..") return 'relay_task_id may not be "." or ".."';
  return null;
}
