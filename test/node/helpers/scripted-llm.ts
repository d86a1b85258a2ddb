// A model double for the LLM port: answers with a fixed script and keeps every prompt it was sent,
// so tests can assert what a turn could and could not see.
import type { LlmMessage, LlmProvider } from "../../../src/ports.js";

export class ScriptedLlm implements LlmProvider {
  readonly id = "scripted-test-model";
  readonly seen: LlmMessage[][] = [];
  constructor(private readonly reply: string) {}
  async complete(messages: LlmMessage[]): Promise<string> {
    this.seen.push(messages);
    return this.reply;
  }
  /** Everything the model was shown, as one string. */
  transcript(): string {
    return this.seen.flat().map((m) => m.content).join("\n");
  }
}
