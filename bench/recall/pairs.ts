// One memory and the question that should find it; the topic groups results in the bench's output.
export interface RecallPair {
  topic: "work" | "home" | "health" | "travel" | "money" | "exact";
  memory: string;
  question: string;
}
