/** A fleet name nobody provisioned (or one retired): the host answers 404, exactly as for a path that does not exist. */
export class UnknownMotebitError extends Error {
  constructor(name: string) {
    super(`no motebit named ${name}`);
    this.name = "UnknownMotebitError";
  }
}
