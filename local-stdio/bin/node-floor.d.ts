/** The one-line warning for a Node below this package's engines.node floor, or "" when `version` is supported. */
export function nodeFloorWarning(version?: string): string;
