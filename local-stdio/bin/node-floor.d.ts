/** The one-line error for a Node below this package's engines.node floor, or "" when `version` is supported. */
export function nodeFloorError(version?: string): string;
